// The sample documentation page's script: it drives the first hashring-lab frame from its
// own buttons and writes what the frame reports into its own text. hashring-lab's
// postMessage protocol, version 1: commands {"hashring-lab": 1, command, ...} to the frame;
// events {"hashring-lab": 1, event, ...} from it (see src/host.rs).
const frame = document.getElementById('modn-frame');
const line = document.getElementById('host-line');
const send = (message) => frame.contentWindow.postMessage({ 'hashring-lab': 1, ...message }, '*');

document.getElementById('host-add').addEventListener('click', () => send({ command: 'add' }));
document.getElementById('host-ring').addEventListener('click', () => send({
  command: 'scenario', query: 'algo=ring&vnodes=100&nodes=A,B,C,D&keys=0..10000',
}));

const number = (n) => n.toLocaleString('en-US');
window.addEventListener('message', (e) => {
  // Only the frame's own messages, and only this protocol's.
  if (e.source !== frame.contentWindow || !e.data || e.data['hashring-lab'] !== 1) return;
  const d = e.data;
  if (d.event === 'ready') {
    line.textContent = `The frame shows ${d.servers.length} servers and ${number(d.keys)} keys.`;
  } else if (d.event === 'changed') {
    const between = d.betweenSurvivors ? `, ${number(d.betweenSurvivors)} of them between servers nobody touched` : '';
    const ideal = d.ideal === null ? '' : ` (ideal ${number(d.ideal)})`;
    line.textContent = `${d.change}: ${number(d.moved)} of ${number(d.keys)} keys moved${ideal}${between}.`;
  } else if (d.event === 'resized') {
    // The height the frame's content needs at its width: the frame takes it, so nothing
    // inside scrolls and nothing is cut (sent on load and whenever it changes).
    frame.dataset.contentHeight = String(d.height);
    frame.style.height = `${d.height}px`;
  } else if (d.event === 'error') {
    line.textContent = `The frame refused: ${d.message}`;
  }
});
