#!/usr/bin/env python3
"""Reference vectors for Ceph's placement (issue 31), from the real Ceph tools (Debian's
ceph-base / ceph-common 16.2): object name → placement group → primary OSD.

For each cluster state, a flat CRUSH map (one straw2 root holding the OSDs, rule `choose
firstn 0 type osd`, the jewel tunables Ceph writes by default) is compiled with
`crushtool -c` and imported into an OSD map made by `osdmaptool --createsimple` (pool 1
'rbd', rjenkins object hash, hashpspool, pg_num = pgp_num = OSDs << pg-bits); then every
object name is mapped by `osdmaptool --test-map-object NAME --pool 1` with all OSDs up and
in, or with one marked out (`--mark-out`). The file written, tests/reference/ceph.txt, holds
each state (`scenario NAME` and the settings `cargo test` builds it from) and each object's
answer `NAME PG PRIMARY ACTING` (the acting set: the primary and its two replicas, pool size
3); `cargo test` replays them and never needs Ceph. And tests/reference/ceph-crushtool.txt: CRUSH on
its own, `crushtool --test --show-mappings` over each state's map for inputs 0..1023 (an OSD
out by `--weight OSD 0`), the rule's acting set for pool size 3. Also
tests/reference/ceph-crushmap.txt: one state's map as `crushtool -d` writes it, which the
`--config` reader must read to the same cluster.

The object names are drawn here (seeded), 1 to 40 characters of [A-Za-z0-9._-], so every
tail length of Jenkins' string hash is met; no test saw them before they were recorded.

    python3 tools/ceph-vectors.py            # installs ceph-base/ceph-common when missing

`python3 tools/ceph-vectors.py hierarchy` writes the hierarchical maps' vectors (issue 52):
maps shaped like real clusters — hosts of OSDs with unequal weights under one root, racks of
hosts, device classes — each compiled by `crushtool -c` and written back by `crushtool -d`
into tests/reference/crush/NAME.txt (so the files are what `ceph osd getcrushmap | crushtool
-d -` gives, shadow ids and all), and `crushtool --test --show-mappings` over inputs 0..1023
for each of their rules, with OSDs out or re-weighted by `--weight`, into
tests/reference/ceph-crush-hierarchy.txt; and `osdmaptool --test-map-object` over 2,000 object
names for six cluster states (a host added, an OSD's CRUSH weight changed, an OSD out, pg_num
64 → 128, two racks) into tests/reference/ceph-hierarchy.txt.
"""
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "reference", "ceph.txt")
MAP_OUT = os.path.join(ROOT, "tests", "reference", "ceph-crushmap.txt")
LN_OUT = os.path.join(ROOT, "tests", "reference", "ceph-ln-table.txt")
CRUSH_OUT = os.path.join(ROOT, "tests", "reference", "ceph-crushtool.txt")
# CRUSH alone, inputs 0..XS-1 (`crushtool --test`): the rule's acting sets for pool size 3.
XS = 1024
LIBRARY = "/usr/lib/x86_64-linux-gnu/ceph/libceph-common.so.2"
OBJECTS = 2000

TUNABLES = """tunable choose_local_tries 0
tunable choose_local_fallback_tries 0
tunable choose_total_tries 50
tunable chooseleaf_descend_once 1
tunable chooseleaf_vary_r 1
tunable chooseleaf_stable 1
tunable straw_calc_version 1
tunable allowed_bucket_algs 54
"""

# (name, OSDs to create in the OSD map, pg bits, [(osd id, CRUSH weight)], OSD marked out)
BASE = [(0, 1.0), (1, 2.0), (2, 0.5), (3, 1.5), (4, 1.0)]
ADDED = BASE + [(5, 1.0)]
REWEIGHTED = [(i, 0.75 if i == 3 else w) for i, w in ADDED]
STATES = [
    ("unequal-weights", 6, 1, BASE, None),
    ("osd.5-added", 6, 1, ADDED, None),
    ("osd.3-reweighted", 6, 1, REWEIGHTED, None),
    ("osd.1-out", 6, 1, REWEIGHTED, 1),
    ("pg_num-64", 8, 3, BASE, None),
]


def need_tools():
    if shutil.which("crushtool") and shutil.which("osdmaptool"):
        return
    subprocess.run(["apt-get", "install", "-y", "ceph-base", "ceph-common"], check=True,
                   env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


def crush_map(osds):
    lines = [TUNABLES.rstrip()]
    lines += [f"device {i} osd.{i}" for i, _ in osds]
    lines += ["type 0 osd", "type 11 root", "root default {", "\tid -1", "\talg straw2",
              "\thash 0"]
    lines += [f"\titem osd.{i} weight {w:.3f}" for i, w in osds]
    lines += ["}", "rule flat {", "\tid 0", "\ttype replicated", "\tmin_size 1",
              "\tmax_size 10", "\tstep take default", "\tstep choose firstn 0 type osd",
              "\tstep emit", "}"]
    return "\n".join(lines) + "\n"


def ln_tables(version):
    """crush_ln's two tables as the installed library holds them: found by their first
    values (2^48, 0, then 2^55/129 rounded up; 0, then LL[1])."""
    data = open(LIBRARY, "rb").read()
    rh_at = data.find(struct.pack("<3Q", 1 << 48, 0, 0xFE03F80FE040))
    ll_at = data.find(struct.pack("<2Q", 0, 0x2E2A60A00))
    assert rh_at >= 0 and ll_at >= 0, "crush_ln's tables not found in " + LIBRARY
    rh_lh = struct.unpack("<258q", data[rh_at:rh_at + 258 * 8])
    ll = struct.unpack("<256q", data[ll_at:ll_at + 256 * 8])
    with open(LN_OUT, "w") as f:
        f.write(f"# Ceph {version}'s crush_ln tables (src/crush/crush_ln_table.h), read from the bytes of\n"
                f"# {LIBRARY} (Debian's ceph-common) by\n"
                "# tools/ceph-vectors.py: __RH_LH_tbl (258 values) and __LL_tbl (256), hex.\n")
        f.write("RH_LH " + " ".join(f"0x{v:x}" for v in rh_lh) + "\n")
        f.write("LL " + " ".join(f"0x{v:x}" for v in ll) + "\n")


def names():
    rng = random.Random(31)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"
    out = []
    while len(out) < OBJECTS:
        n = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))
        if not n.startswith("-") and n not in out:
            out.append(n)
    return out


def map_object(osdmap, name, out):
    cmd = ["osdmaptool", osdmap, "--mark-up-in"]
    if out is not None:
        cmd += ["--mark-out", str(out)]
    cmd += ["--test-map-object", name, "--pool", "1"]
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    # " object 'NAME' -> 1.6 -> [3,4,1]"
    line = text.strip().splitlines()[-1]
    pg = line.split(" -> ")[1]
    acting = line.split(" -> ")[2].strip("[]").split(",")
    return name, pg.split(".")[1], ",".join(f"osd.{a}" for a in acting)


def main():
    need_tools()
    objects = names()
    version = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "ceph-base"],
                             capture_output=True, text=True).stdout
    ln_tables(version)
    crush_lines = [f"# Ceph {version}: crushtool -i MAP --test --show-mappings --rule 0 "
                   f"--num-rep 3 --min-x 0 --max-x {XS - 1} [--weight OSD 0] "
                   "(tools/ceph-vectors.py). Lines: X ACTING-SET."]
    lines = [f"# Ceph {version}: osdmaptool --test-map-object NAME --pool 1 "
             "(tools/ceph-vectors.py). Lines: NAME PG-SEED PRIMARY-OSD ACTING-SET (pool size 3)."]
    with tempfile.TemporaryDirectory() as tmp:
        for name, count, bits, osds, out in STATES:
            text = crush_map(osds)
            src, binary, osdmap = (os.path.join(tmp, f"{name}.{e}") for e in ("txt", "bin", "map"))
            open(src, "w").write(text)
            subprocess.run(["crushtool", "-c", src, "-o", binary], check=True)
            subprocess.run(["osdmaptool", "--createsimple", str(count), "--pg-bits", str(bits),
                            "--pgp-bits", str(bits), "--with-default-pool", "--clobber", osdmap],
                           check=True, capture_output=True)
            subprocess.run(["osdmaptool", osdmap, "--import-crush", binary], check=True,
                           capture_output=True)
            if name == "osd.3-reweighted":
                decompiled = os.path.join(tmp, "d.txt")
                subprocess.run(["crushtool", "-d", binary, "-o", decompiled], check=True)
                open(MAP_OUT, "w").write(open(decompiled).read())
            nodes = ",".join(f"osd.{i}*{w:g}" for i, w in osds)
            if bits == 1:
                crush_lines.append(f"scenario {name} nodes={nodes}"
                                   + (f" down=osd.{out}" if out is not None else ""))
                test = ["crushtool", "-i", binary, "--test", "--show-mappings", "--rule", "0",
                        "--num-rep", "3", "--min-x", "0", "--max-x", str(XS - 1)]
                if out is not None:
                    test += ["--weight", str(out), "0"]
                shown = subprocess.run(test, check=True, capture_output=True, text=True).stdout
                for row in shown.splitlines():
                    # "CRUSH rule 0 x 5 [3,0,1]"
                    words = row.split()
                    acting = ",".join(f"osd.{a}" for a in words[5].strip("[]").split(","))
                    crush_lines.append(f"{words[4]} {acting}")
            words = [f"pg_num={count << bits}", f"nodes={nodes}"]
            if out is not None:
                words.append(f"down=osd.{out}")
            lines.append(f"scenario {name} " + " ".join(words))
            with ThreadPoolExecutor(max_workers=4) as pool:
                for obj, pg, acting in pool.map(lambda o: map_object(osdmap, o, out), objects):
                    lines.append(f"{obj} {pg} {acting.split(',')[0]} {acting}")
            print(name, "done", file=sys.stderr)
    open(OUT, "w").write("\n".join(lines) + "\n")
    open(CRUSH_OUT, "w").write("\n".join(crush_lines) + "\n")
    print(f"wrote {OUT}: {len(STATES)} states × {OBJECTS} objects", file=sys.stderr)


HIERARCHY_OUT = os.path.join(ROOT, "tests", "reference", "ceph-crush-hierarchy.txt")
HIERARCHY_MAPS = os.path.join(ROOT, "tests", "reference", "crush")

PROFILES = {
    "jewel": TUNABLES,
    # bobtail: no vary_r, no stable; firefly: vary_r only.
    "bobtail": TUNABLES.replace("chooseleaf_vary_r 1", "chooseleaf_vary_r 0").replace("chooseleaf_stable 1", "chooseleaf_stable 0"),
    "firefly": TUNABLES.replace("chooseleaf_stable 1", "chooseleaf_stable 0"),
    "descend-many": TUNABLES.replace("chooseleaf_descend_once 1", "chooseleaf_descend_once 0").replace("choose_total_tries 50", "choose_total_tries 19"),
}

RULES = {
    "replicated_rule": ["take default", "chooseleaf firstn 0 type host", "emit"],
    "hdd_rule": ["take default class hdd", "chooseleaf firstn 0 type host", "emit"],
    "ssd_primary": ["take default class ssd", "chooseleaf firstn 1 type host", "emit",
                    "take default class hdd", "chooseleaf firstn -1 type host", "emit"],
    "two_step": ["take default", "choose firstn 0 type host", "choose firstn 1 type osd", "emit"],
    "by_rack": ["take default", "chooseleaf firstn 0 type rack", "emit"],
    "two_per_rack": ["take default", "choose firstn 2 type rack", "chooseleaf firstn 2 type host", "emit"],
}

# Hosts: (name, [(osd id, CRUSH weight, class)]).
HOSTS = [
    ("node-a", [(0, 1.0, "hdd"), (1, 2.0, "hdd"), (2, 0.5, "ssd"), (3, 1.5, "hdd")]),
    ("node-b", [(4, 1.0, "hdd"), (5, 1.0, "ssd"), (6, 3.0, "hdd"), (7, 1.0, "hdd")]),
    ("node-c", [(8, 2.0, "hdd"), (9, 0.25, "ssd"), (10, 1.0, "hdd"), (11, 1.0, "hdd")]),
]
HOST_D = ("node-d", [(12, 1.0, "hdd"), (13, 2.0, "hdd"), (14, 0.5, "ssd"), (15, 1.0, "hdd")])


def hierarchy_map(profile, racks, rules):
    """A map of `racks` ([(rack or None, [hosts])]); bucket weights left for crushtool."""
    lines = [PROFILES[profile].rstrip()]
    osds = sorted(o for _, hosts in racks for _, host in hosts for o in host)
    lines += [f"device {i} osd.{i} class {c}" for i, _, c in osds]
    lines += ["type 0 osd", "type 1 host", "type 3 rack", "type 11 root"]
    tops = []
    for rack, hosts in racks:
        for name, host in hosts:
            lines += [f"host {name} {{", "\talg straw2", "\thash 0"]
            lines += [f"\titem osd.{i} weight {w:.3f}" for i, w, _ in host]
            lines += ["}"]
        if rack is None:
            tops += [name for name, _ in hosts]
        else:
            lines += [f"rack {rack} {{", "\talg straw2", "\thash 0"]
            lines += [f"\titem {name}" for name, _ in hosts]
            lines += ["}"]
            tops.append(rack)
    lines += ["root default {", "\talg straw2", "\thash 0"] + [f"\titem {t}" for t in tops] + ["}"]
    for n, name in enumerate(rules):
        lines += [f"rule {name} {{", f"\tid {n}", "\ttype replicated", "\tmin_size 1", "\tmax_size 10"]
        lines += [f"\tstep {step}" for step in RULES[name]] + ["}"]
    return "\n".join(lines) + "\n"


def reweighted(hosts, osd, weight):
    return [(n, [(i, weight if i == osd else w, c) for i, w, c in h]) for n, h in hosts]


FLAT_RULES = ["replicated_rule", "hdd_rule", "ssd_primary", "two_step"]
# (map name, profile, racks, rules)
HIERARCHY_STATES = [
    ("3-hosts", "jewel", [(None, HOSTS)], FLAT_RULES),
    ("3-hosts-host-added", "jewel", [(None, HOSTS + [HOST_D])], FLAT_RULES),
    ("3-hosts-osd-reweighted", "jewel", [(None, reweighted(HOSTS, 6, 1.25))], FLAT_RULES),
    ("3-hosts-bobtail", "bobtail", [(None, HOSTS)], FLAT_RULES),
    ("3-hosts-firefly", "firefly", [(None, HOSTS)], FLAT_RULES),
    ("3-hosts-descend-many", "descend-many", [(None, HOSTS)], FLAT_RULES),
    ("2-racks", "jewel", [("rack-1", HOSTS[:2]), ("rack-2", [HOSTS[2], HOST_D])],
     ["replicated_rule", "by_rack", "two_per_rack", "hdd_rule"]),
]
# (map, rule id, replicas, OSD-map weights as `osd:weight`)
HIERARCHY_TESTS = [
    (m, r, n, w)
    for m, _, _, rules in HIERARCHY_STATES
    for r in range(len(rules))
    for n, w in [(3, ""), (2, ""), (3, "6:0"), (3, "1:0.5,8:0")]
] + [("2-racks", 2, 4, ""), ("2-racks", 2, 4, "4:0"),
      ("3-hosts-add-host", 0, 3, ""), ("3-hosts-add-host", 1, 3, ""), ("3-hosts-add-host", 2, 3, "")]


HIERARCHY_OBJECTS_OUT = os.path.join(ROOT, "tests", "reference", "ceph-hierarchy.txt")
# (state, map, pg bits over 16 OSDs in the OSD map: 2 → pg_num 64, OSD marked out)
OBJECT_STATES = [
    ("3-hosts", "3-hosts", 2, None),
    ("host-added", "3-hosts-host-added", 2, None),
    ("osd.6-crush-reweighted", "3-hosts-osd-reweighted", 2, None),
    ("osd.6-out", "3-hosts", 2, 6),
    ("pg_num-128", "3-hosts", 3, None),
    ("2-racks", "2-racks", 2, None),
    ("host-added-by-step", "3-hosts-add-host", 2, None),
    ("host-removed-by-step", "3-hosts-remove-host", 2, None),
]


# A host added as an operator adds one (`ceph osd crush add-bucket`, `… move`, `ceph osd crush
# add` per OSD, the class set on boot), to the compiled 3-hosts map by crushtool's own edits:
# the existing buckets keep their ids, the new host gets the lowest free one. The step that
# says the same to the lab.
ADD_HOST_OSDS = [(12, 1.0), (13, 2.0), (14, 0.5), (15, 1.0)]
ADD_HOST_STEP = "add-host:node-d@default=" + "+".join(
    f"osd.{i}" + (f"*{w:g}" if w != 1.0 else "") + ":hdd" for i, w in ADD_HOST_OSDS)


def add_host_live(tmp):
    current = os.path.join(tmp, "3-hosts.bin")
    edits = [["--add-bucket", "node-d", "host", "--loc", "root", "default"]]
    edits += [["--add-item", str(i), f"{w}", f"osd.{i}", "--loc", "host", "node-d"] for i, w in ADD_HOST_OSDS]
    # crushtool takes --set-subtree-class only beside an action, and runs that action's
    # rebuild of the class trees first: a second rebuild makes them hold the new class, as a
    # cluster's do once the OSDs boot with it.
    edits += [["--set-subtree-class", "node-d", "hdd", "--rebuild-class-roots"], ["--rebuild-class-roots"]]
    for n, edit in enumerate(edits):
        following = os.path.join(tmp, f"add-host-{n}.bin")
        subprocess.run(["crushtool", "-i", current, *edit, "-o", following], check=True, capture_output=True)
        current = following
    shutil.copy(current, os.path.join(tmp, "3-hosts-add-host.bin"))
    subprocess.run(["crushtool", "-d", current, "-o", os.path.join(HIERARCHY_MAPS, "3-hosts-add-host.txt")], check=True)


# A host decommissioned as an operator does it (`ceph osd purge` of each OSD, then `ceph osd
# crush remove` of the emptied host), by crushtool's own edits to the compiled 3-hosts map;
# the step that says the same to the lab.
REMOVE_HOST_STEP = "remove-host:node-b"


def remove_host_live(tmp):
    current = os.path.join(tmp, "3-hosts.bin")
    edits = [["--remove-item", f"osd.{i}"] for i in range(4, 8)] + [["--remove-item", "node-b"]]
    for n, edit in enumerate(edits):
        following = os.path.join(tmp, f"remove-host-{n}.bin")
        subprocess.run(["crushtool", "-i", current, *edit, "-o", following], check=True, capture_output=True)
        current = following
    shutil.copy(current, os.path.join(tmp, "3-hosts-remove-host.bin"))


def hierarchy_objects(tmp, version):
    """object → PG → acting set through osdmaptool, the pool on the map's first rule."""
    objects = names()
    lines = [f"# Ceph {version}: osdmaptool --test-map-object NAME --pool 1 over crush/MAP.txt "
             "(tools/ceph-vectors.py hierarchy). Lines: NAME PG-SEED PRIMARY-OSD ACTING-SET (pool size 3)."]
    for state, name, bits, out in OBJECT_STATES:
        osdmap = os.path.join(tmp, f"{state}.map")
        subprocess.run(["osdmaptool", "--createsimple", "16", "--pg-bits", str(bits), "--pgp-bits", str(bits),
                        "--with-default-pool", "--clobber", osdmap], check=True, capture_output=True)
        subprocess.run(["osdmaptool", osdmap, "--import-crush", os.path.join(tmp, name + ".bin")],
                       check=True, capture_output=True)
        words = [f"scenario {state}", f"map={name}", f"pg_num={16 << bits}"]
        steps = {"3-hosts-add-host": ADD_HOST_STEP, "3-hosts-remove-host": REMOVE_HOST_STEP}
        if name in steps:
            # The lab reaches it from the 3-hosts map by its step.
            words = [f"scenario {state}", "map=3-hosts", f"step={steps[name]}", f"pg_num={16 << bits}"]
        if out is not None:
            words.append(f"down=osd.{out}")
        lines.append(" ".join(words))
        with ThreadPoolExecutor(max_workers=4) as pool:
            for obj, pg, acting in pool.map(lambda o: map_object(osdmap, o, out), objects):
                lines.append(f"{obj} {pg} {acting.split(',')[0]} {acting}")
        print(state, "done", file=sys.stderr)
    open(HIERARCHY_OBJECTS_OUT, "w").write("\n".join(lines) + "\n")


def hierarchy():
    need_tools()
    version = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "ceph-base"],
                             capture_output=True, text=True).stdout
    os.makedirs(HIERARCHY_MAPS, exist_ok=True)
    out = [f"# Ceph {version}: crushtool -i MAP --test --show-mappings --rule RULE --num-rep N "
           f"--min-x 0 --max-x {XS - 1} [--weight OSD W …] (tools/ceph-vectors.py hierarchy).",
           "# `test MAP rule=ID replicas=N weights=OSD:W,…` then lines X OSD,OSD,… (the maps: crush/MAP.txt)."]
    with tempfile.TemporaryDirectory() as tmp:
        for name, profile, racks, rules in HIERARCHY_STATES:
            src, binary = os.path.join(tmp, name + ".txt"), os.path.join(tmp, name + ".bin")
            open(src, "w").write(hierarchy_map(profile, racks, rules))
            subprocess.run(["crushtool", "-c", src, "-o", binary], check=True)
            subprocess.run(["crushtool", "-d", binary, "-o", os.path.join(HIERARCHY_MAPS, name + ".txt")], check=True)
        add_host_live(tmp)
        remove_host_live(tmp)
        for name, rule, replicas, weights in HIERARCHY_TESTS:
            binary = os.path.join(tmp, name + ".bin")
            cmd = ["crushtool", "-i", binary, "--test", "--show-mappings", "--rule", str(rule),
                   "--num-rep", str(replicas), "--min-x", "0", "--max-x", str(XS - 1)]
            for pair in filter(None, weights.split(",")):
                osd, weight = pair.split(":")
                cmd += ["--weight", osd, weight]
            shown = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            out.append(f"test {name} rule={rule} replicas={replicas} weights={weights or '-'}")
            for row in shown.splitlines():
                words = row.split()
                out.append(f"{words[4]} {words[5].strip('[]')}")
        hierarchy_objects(tmp, version)
    open(HIERARCHY_OUT, "w").write("\n".join(out) + "\n")
    print(f"wrote {HIERARCHY_OUT}: {len(HIERARCHY_TESTS)} tests × {XS} inputs", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:] == ["hierarchy"]:
        hierarchy()
    else:
        main()
