// The smallest kind of peer visualizer, for tests/perf/first_paint.mjs: plain JavaScript,
// no framework, 4 servers on a hash ring and 1,000 keys drawn as dots in their owner's
// colour. It records when its ring with data is drawn (window.ringDrawnAt).
const fnv = (s) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
};
const servers = ['A', 'B', 'C', 'D'].map((name, i) => ({ name, at: fnv(name), colour: ['#56b4e9', '#e69f00', '#009e73', '#cc79a7'][i] }))
  .sort((a, b) => a.at - b.at);
const owner = (h) => servers.find((s) => s.at >= h) || servers[0];
const canvas = document.getElementById('ring');
const dpr = devicePixelRatio || 1;
canvas.width = 640 * dpr; canvas.height = 640 * dpr;
const ctx = canvas.getContext('2d');
ctx.scale(dpr, dpr);
const [cx, cy, r] = [320, 320, 240];
const at = (h, radius) => {
  const a = (h / 2 ** 32) * 2 * Math.PI;
  return [cx + radius * Math.sin(a), cy - radius * Math.cos(a)];
};
ctx.lineWidth = 14; ctx.strokeStyle = '#2a3244';
ctx.beginPath(); ctx.arc(cx, cy, r, 0, 2 * Math.PI); ctx.stroke();
for (let i = 0; i < 1000; i++) {
  const h = fnv(`key-${i}`);
  const [x, y] = at(h, r - 20 - (h % 30));
  ctx.fillStyle = owner(h).colour;
  ctx.beginPath(); ctx.arc(x, y, 2.5, 0, 2 * Math.PI); ctx.fill();
}
for (const s of servers) {
  const [x, y] = at(s.at, r);
  ctx.fillStyle = s.colour;
  ctx.beginPath(); ctx.arc(x, y, 9, 0, 2 * Math.PI); ctx.fill();
  ctx.fillStyle = '#e6ebf5'; ctx.font = '14px system-ui';
  const [lx, ly] = at(s.at, r + 26);
  ctx.fillText(s.name, lx - 4, ly + 5);
}
window.ringDrawnAt = performance.now();
