// Your cluster (issue 18): a pasted nginx upstream becomes the scenario — nginx's algorithm,
// the servers as the config writes them, their weights — and a key goes where Debian's nginx
// sent it (tests/reference/nginx.txt); a config that is not consistent hashing is refused
// with the reason, and nothing changes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serveDist, openBrowser, ready, tableCounts, screenshot, cli } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await openBrowser({ width: 1440, height: 900 }); });
after(async () => { await browser?.context.close(); await server?.close(); });

const NGINX = `upstream pool {
    hash $arg_key consistent;
    server 127.0.0.1:18181;
    server 127.0.0.1:18182 weight=2;
    server 127.0.0.1:18183;
    server 127.0.0.1:18199 backup;
}`;

/** Opens 2,000 keys, pastes `config` into the config box and waits for `algo` to load. */
async function useConfig(page, config, algo) {
  await page.goto(`${server.origin}/?lang=en&keys=${encodeURIComponent('key-{i}:0..2000')}`);
  await ready(page);
  await page.click('details.export summary');
  await page.fill('#config-text', config);
  await page.click('button.use-config');
  await page.waitForFunction((a) => new URL(location).searchParams.get('algo') === a
    && !document.querySelector('.summary progress'), algo);
  await ready(page);
}

/** Looks each key up and checks the server the page names: [[key, server], …] (`→ server X`;
 * for hash slots, `slot N is served by X`). */
async function assertPlaced(page, placed, says = '→ server') {
  for (const [key, want] of placed) {
    await page.fill('#lookup-key', key);
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.waitForFunction((k) => document.querySelector('.explain')?.textContent.includes(`"${k}"`), key);
    assert.match(await page.textContent('.explain'), new RegExp(`${says} ${want.replace(/\./g, '\\.')}$`), key);
  }
}

test('a pasted nginx upstream becomes the scenario and places keys as nginx did', async () => {
  const { page } = browser;
  await useConfig(page, NGINX, 'nginx');
  const counts = await tableCounts(page);
  assert.deepEqual(counts.map((r) => r.name), ['127.0.0.1:18181', '127.0.0.1:18182', '127.0.0.1:18183']);
  // The backup server is not lost without a word: the page says it left it out, and why.
  assert.equal((await page.textContent('.error'))?.replace(/Dismiss$/, '').trim(),
    "Left out: backup server(s) '127.0.0.1:18199' (the hash places keys on the primary servers; backups serve only when none is up).");
  await screenshot(page, '80-nginx-config');
  await assertPlaced(page, [['key-0', '127.0.0.1:18183'], ['key-1', '127.0.0.1:18181'], ['user:42', '127.0.0.1:18182']]);
  // A round-robin upstream is refused with the reason; the scenario stays.
  await page.fill('#config-text', 'upstream pool {\n  server a:80;\n}');
  await page.click('button.use-config');
  await page.waitForFunction(() => /round robin/.test(document.querySelector('.error')?.textContent || ''));
  // Said where it can be seen: the notice stands near the top of the page, the config box at
  // its foot, so the page scrolls up to the notice (before, it was said 700 px out of sight).
  await page.waitForFunction(() => { const b = document.querySelector('.error').getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; });
  assert.deepEqual((await tableCounts(page)).map((r) => r.name), counts.map((r) => r.name));
  // A server name the list would split is refused with where it stands, not misread.
  await page.fill('#config-text', 'upstream pool {\n  hash $k consistent;\n  server a,b:80;\n}');
  await page.click('button.use-config');
  await page.waitForFunction(() => /config line 3, column 10: expected a name without , \* \{ or \}/.test(document.querySelector('.error')?.textContent || ''));
  assert.deepEqual((await tableCounts(page)).map((r) => r.name), counts.map((r) => r.name));
  // An Envoy cluster is the command line's to read (its YAML reader does not fit the page).
  await page.fill('#config-text', 'clusters:\n- lb_policy: RING_HASH\n  load_assignment: { endpoints: [ { lb_endpoints: [] } ] }\n');
  await page.click('button.use-config');
  await page.waitForFunction(() => /Envoy: read by the command line \(hashring-lab simulate --config FILE\), not by the page/.test(document.querySelector('.error')?.textContent || ''));
  assert.deepEqual((await tableCounts(page)).map((r) => r.name), counts.map((r) => r.name));
  // So is a Redis Cluster's CLUSTER SHARDS (CLUSTER NODES, read here, gives the same table).
  await page.fill('#config-text', '1) 1) "slots"\n   2) 1) (integer) 0\n      2) (integer) 16383\n');
  await page.click('button.use-config');
  await page.waitForFunction(() => /CLUSTER SHARDS: read by the command line \(hashring-lab simulate --config FILE\)/.test(document.querySelector('.error')?.textContent || ''));
  await screenshot(page, '81-config-for-the-command-line');
  assert.deepEqual((await tableCounts(page)).map((r) => r.name), counts.map((r) => r.name));
});

// The pool tools/twemproxy-vectors.py gave Debian's nutcracker as "named" (tests/reference/twemproxy.txt).
const TWEMPROXY = `cache:          # memcached pool
  listen: 127.0.0.1:22120
  hash: fnv1a_64
  distribution: ketama
  servers:
   - 127.0.0.1:22131:1 alpha
   - 127.0.0.1:22132:3 beta
   - 127.0.0.1:22133:1 gamma
`;

test('a pasted twemproxy pool becomes the scenario and places keys as nutcracker did', async () => {
  const { page } = browser;
  await useConfig(page, TWEMPROXY, 'twemproxy');
  const counts = await tableCounts(page);
  assert.deepEqual(counts.map((r) => r.name), ['alpha', 'beta', 'gamma']);
  assert.equal(new URL(page.url()).searchParams.get('nodes'), 'alpha,beta*3,gamma');
  await assertPlaced(page, [['key-1', 'gamma'], ['key-400', 'alpha'], ['user:42', 'beta'], ['café', 'beta']]);
  await screenshot(page, '82-twemproxy-config');
  // A hash twemproxy has but the lab does not model is refused with the reason.
  await page.fill('#config-text', TWEMPROXY.replace('fnv1a_64', 'murmur'));
  await page.click('button.use-config');
  await page.waitForFunction(() => /only `hash: fnv1a_64` \(the default\) and `hash: md5` are modelled/.test(document.querySelector('.error')?.textContent || ''));
  assert.deepEqual(await tableCounts(page), counts);
});

test('pasted keys become the key set, go into the link, and place as the command line places them', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&nodes=A,B,C&keys=${encodeURIComponent('key-{i}:0..2000')}`);
  await ready(page);
  await page.click('details.export summary');
  const keys = ['user:1', 'user:2', 'user:3', 'cart:9', 'session:x', 'order:2026-12-01', 'user:42'];
  // CRLF, spaces around keys and blank lines are the paste's, not the keys'.
  await page.fill('#keys-text', `${keys.slice(0, 3).join('\r\n')}\n\n  ${keys.slice(3).join(' \n')}\n`);
  await page.click('button.use-keys');
  await page.waitForFunction(() => (new URL(location).searchParams.get('keys') || '').startsWith('list:')
    && !document.querySelector('.summary progress'));
  await ready(page);
  assert.equal(new URL(page.url()).searchParams.get('keys'), `list:${keys.join(',')}`);
  assert.match(await page.textContent('[role=status]'), /Keys set to your 7 keys \(user:1, user:2, user:3, …\)/);
  const counts = await tableCounts(page);
  assert.equal(counts.reduce((a, r) => a + r.keys, 0), keys.length);
  const out = cli(['simulate', '--nodes', 'A,B,C', '--keys', `list:${keys.join(',')}`, '--format', 'json']);
  const cliCounts = JSON.parse(out).steps[0].counts;
  assert.deepEqual(Object.fromEntries(counts.map((r) => [r.name, r.keys])), cliCounts);
  await screenshot(page, '81-pasted-keys');
  // A key with a comma cannot live in a link: refused with its line, and the keys stay.
  await page.fill('#keys-text', 'fine\nnot,fine\n');
  await page.click('button.use-keys');
  await page.waitForFunction(() => /line 2: keys: a key in a link cannot hold a comma/.test(document.querySelector('.error')?.textContent || ''));
  assert.deepEqual(await tableCounts(page), counts);
});

// A real Redis Cluster (tools/redis-cluster-vectors.py: three masters with uneven slots, a
// replica, slot 100 migrating): its CLUSTER NODES output, pasted, becomes the scenario with
// the cluster's own slot table, which the link carries; keys go where redis-server sent them.
const REDIS = readFileSync(new URL('../reference/redis-cluster.txt', import.meta.url), 'utf8');
const section = (prefix) => REDIS.split('\n').filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length)).join('\n');
const routed = REDIS.split('\n').filter((l) => /^key-\d+ /.test(l)).map((l) => l.split(' '));

test('a pasted CLUSTER NODES becomes the cluster with its own slot table, in the link', async () => {
  const { page } = browser;
  await useConfig(page, section('node '), 'slots');
  const counts = await tableCounts(page);
  assert.deepEqual(counts.map((r) => r.name), ['127.0.0.1:18383', '127.0.0.1:18381', '127.0.0.1:18382']);
  const link = new URL(page.url()).searchParams;
  assert.equal(link.get('slotmap'), '12001-16383,0-4999,5000-12000');
  await assertPlaced(page, routed.filter(([k]) => ['key-0', 'key-2', 'key-3', 'key-1999'].includes(k)), 'is served by');
  // The page's counts are the cluster's: every recorded key of 0..2000, counted by server.
  const want = {};
  for (const [key, to] of routed) if (Number(key.slice(4)) < 2000) want[to] = (want[to] || 0) + 1;
  assert.deepEqual(Object.fromEntries(counts.map((r) => [r.name, r.keys])), want);
  await screenshot(page, '83-redis-cluster-nodes');
  // A master added takes slots from the others; the link then carries the rebalanced table,
  // and opening it shows the same counts.
  await page.fill('#new-server', '127.0.0.1:18385');
  await page.getByRole('button', { name: 'Add server' }).click();
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 4);
  await ready(page);
  const added = await tableCounts(page);
  const rebalanced = new URL(page.url()).searchParams.get('slotmap');
  assert.match(rebalanced, /^[\d+,-]+$/);
  assert.equal(rebalanced.split(',').length, 4);
  await page.goto(page.url());
  await ready(page);
  assert.deepEqual(await tableCounts(page), added);
  // A CLUSTER NODES with a slot out of range is refused with where it stands; nothing changes.
  await page.click('details.export summary');
  await page.fill('#config-text', section('node ').replace('12001-16383', '12001-16384'));
  await page.click('button.use-config');
  await page.waitForFunction(() => /config line 2, column \d+: expected slots N or A-B, from 0 to 16383, found '12001-16384'/.test(document.querySelector('.error')?.textContent || ''));
  assert.deepEqual(await tableCounts(page), added);
  // So is one whose masters leave slots unheld (the cluster would be down for them).
  await page.fill('#config-text', section('node ').replace(' 12001-16383', ''));
  await page.click('button.use-config');
  await page.waitForFunction(() => /slots 12001–16383 are held by no master/.test(document.querySelector('.error')?.textContent || ''));
  assert.deepEqual(await tableCounts(page), added);
});

test('a slotmap in the link is checked: a slot held twice is refused with both masters named', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&algo=slots&nodes=a:1,b:2&slotmap=0-9000,9000-16383`);
  await page.waitForFunction(() => /slot 9000 is held by both 'a:1' and 'b:2'/.test(document.body.textContent));
  await screenshot(page, '84-slotmap-refused');
});

// A real Cassandra cluster (tools/cassandra-ring-vectors.py: two datacenters, six nodes of 16
// tokens, one Joining): its `nodetool ring` output, pasted, becomes the scenario with the
// cluster's own tokens, which the link carries; keys go where the DataStax driver's token map
// sends them, before and after the joining node joins.
const CASSANDRA = readFileSync(new URL('../reference/cassandra-ring.txt', import.meta.url), 'utf8');
const ring = CASSANDRA.split('\n').filter((l) => l.startsWith('ring ')).map((l) => l.slice(5)).join('\n');
const owners = CASSANDRA.split('\n').filter((l) => /^key-\d+ /.test(l)).map((l) => l.split(' '));
const countBy = (column) => {
  const by = {};
  for (const row of owners) by[row[column]] = (by[row[column]] || 0) + 1;
  return by;
};

test('a pasted nodetool ring becomes the cluster with its own tokens, in the link', async () => {
  const { page } = browser;
  await useConfig(page, ring, 'cassandra');
  const counts = await tableCounts(page);
  assert.deepEqual(counts.map((r) => r.name), ['10.0.1.1', '10.0.1.4', '10.0.1.2', '10.0.1.3', '10.0.2.1', '10.0.2.2']);
  const link = new URL(page.url()).searchParams;
  assert.equal(link.get('down'), '10.0.1.4', 'the Joining node is down until it has joined');
  assert.equal(link.get('vnodes'), '16', "a node added gets the cluster's num_tokens");
  const tokens = link.get('tokens').split(',');
  assert.deepEqual(tokens.map((t) => t.split('+').length), [16, 16, 16, 16, 16, 16]);
  // The page's counts are the driver's: the 2,000 recorded keys, counted by owner.
  const now = countBy(1);
  assert.deepEqual(Object.fromEntries(counts.filter((r) => r.keys > 0).map((r) => [r.name, r.keys])), now);
  await assertPlaced(page, owners.filter(([k]) => ['key-0', 'key-2', 'key-1999'].includes(k)).map(([k, o]) => [k, o]));
  // The token that serves it is named by its number among its node's 16, as nodetool lists them.
  const [, number] = (await page.textContent('.explain')).match(/clockwise is 10\.0\.1\.2#(\d+) at/);
  assert.ok(Number(number) < 16, number);
  await screenshot(page, '85-nodetool-ring');
  // The joining node joins: the keys it takes over are the ones the driver moved to it.
  await page.getByRole('button', { name: 'Recover 10.0.1.4' }).click();
  await page.waitForFunction(() => !document.querySelector('tr.down'));
  await ready(page);
  const joined = await tableCounts(page);
  assert.deepEqual(Object.fromEntries(joined.map((r) => [r.name, r.keys])), countBy(2));
  const moved = owners.filter((r) => r[1] !== r[2]).length;
  assert.match(await page.textContent('[role=status]'), new RegExp(`${moved.toLocaleString('en')} of 2,000 keys moved`));
  // Reopening the link shows the same cluster (the tokens travel with it).
  await page.goto(page.url());
  await ready(page);
  assert.deepEqual(await tableCounts(page), joined);
  // A row whose token is not a number is refused with where it stands; nothing changes.
  await page.click('details.export summary');
  const broken = ring.replace('-9007422879468918108', 'x');
  await page.fill('#config-text', broken);
  await page.click('button.use-config');
  await page.waitForFunction(() => /config line \d+, column \d+: expected a token, a signed 64-bit number, found 'x'/.test(document.querySelector('.error')?.textContent || ''));
  await page.waitForFunction(() => document.querySelector('.error').getBoundingClientRect().top >= 0);
  assert.deepEqual(await tableCounts(page), joined);
});

test('tokens in the link are checked: a token held twice is refused with both nodes named', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&algo=cassandra&nodes=a,b&tokens=5%2B7,7`);
  await page.waitForFunction(() => /token 7 is held by both 'a' and 'b'/.test(document.body.textContent));
  await page.goto(`${server.origin}/?lang=en&algo=ring&tokens=5`);
  await page.waitForFunction(() => /tokens is for algo=cassandra only/.test(document.body.textContent));
});
