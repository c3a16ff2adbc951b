"""The package, the command line and the page (the engine compiled to WebAssembly, in
headless Chromium) place the same keys on the same servers: one random scenario for every
algorithm the page has, the page's own "Every key's server (CSV)" export read back
(tests/e2e/page-owners.mjs). `make test-python` runs it against the dist/ that `make test`
built (HASHRING_LAB_PAGE=1); run alone without a built page, it is skipped."""

from __future__ import annotations

import json
import os
import random
import subprocess
import urllib.parse

import pytest

import hashring_lab as hl
from conftest import ROOT
from test_agreement import PER_KEY, cli_owners, random_scenario


def page_owners(links: list[str]) -> list[dict]:
    if not (ROOT / "dist" / "index.html").exists() or not (ROOT / "node_modules" / "playwright-core").exists():
        if os.environ.get("HASHRING_LAB_PAGE"):
            pytest.fail("no built page (dist/) or Playwright (node_modules/): run `make dist` and tools/setup.sh test")
        pytest.skip("no built page: `make test` builds it")
    done = subprocess.run(["node", str(ROOT / "tests" / "e2e" / "page-owners.mjs")], input=json.dumps(links),
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_the_page_places_keys_as_the_package_and_the_command_line():
    cases = []
    for algo in PER_KEY:
        rng = random.Random(f"page-{algo}")
        while True:
            names, nodes, down, params, keys, _ = random_scenario(algo, rng)
            keys = [k for k in dict.fromkeys(keys) if k][:200]
            try:
                cluster = hl.Cluster(algo, nodes, down=down, **params)
                break
            except hl.ScenarioError:
                continue
        # The cluster's own link (its table size too: the page's default is smaller), and the keys.
        query = cluster.link[1:] + "&" + urllib.parse.urlencode({"keys": "list:" + ",".join(keys)})
        cases.append((algo, cluster, nodes, down, params, keys, query))
    answers = page_owners([c[-1] for c in cases])
    assert len(answers) == len(cases) == len(PER_KEY)
    for (algo, cluster, nodes, down, params, keys, _), page in zip(cases, answers):
        package = cluster.locate(keys)
        assert [page.get(k) for k in keys] == package, algo
        assert cli_owners(algo, nodes, down, params, keys) == package, algo


def test_the_page_places_objects_over_a_crush_hierarchy_as_the_package():
    """A real cluster's CRUSH map (hosts with device classes, racks) read by the package
    travels in its link (`crush=`): the page places objects on the OSDs the package and
    osdmaptool name — an OSD out, and after a host is added by the `add-host` step."""
    from conftest import REFERENCE

    keys = [f"obj-{i}" for i in range(300)]
    hosts = hl.Cluster.from_config((REFERENCE / "crush" / "3-hosts.txt").read_text(), pg_num=64)
    clusters = [
        hosts,
        hl.Cluster.from_config((REFERENCE / "crush" / "3-hosts.txt").read_text(), pg_num=64, down="osd.6"),
        hl.Cluster.from_config((REFERENCE / "crush" / "2-racks.txt").read_text(), pg_num=128),
        # A link says the cluster after the step: the layout with the new host in it.
        hl.Cluster.from_link(hosts.step("add-host:node-d@default=osd.12:hdd+osd.13*2:hdd").link),
    ]
    links = [c.link[1:] + "&" + urllib.parse.urlencode({"keys": "list:" + ",".join(keys)}) for c in clusters]
    assert all("crush=" in link for link in links)
    for cluster, page in zip(clusters, page_owners(links)):
        assert [page.get(k) for k in keys] == cluster.locate(keys), cluster.link[:80]
