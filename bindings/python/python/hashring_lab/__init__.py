"""hashring_lab: which of your keys move when the cluster changes.

The placement engine of hashring-lab (the page and the ``hashring-lab`` command line) as a
Python package: a :class:`Cluster` is an algorithm over servers, made from the page's
parameters, a page link, or a system's own config text (nginx, HAProxy, twemproxy, Envoy,
Redis Cluster, Cassandra, Ceph) — placed bit for bit as that system places keys.

Keys go in and owners come out as Arrow columns (pyarrow, Polars, DuckDB) without a Python
object per key; :func:`moved` gives the migration list (``key, old_server, new_server``) — the rows of
``hashring-lab simulate --moved``. :mod:`hashring_lab.duckdb`, :mod:`hashring_lab.polars`
and :mod:`hashring_lab.spark` run it where the keys are.

    >>> import hashring_lab as hl
    >>> before = hl.Cluster.from_config(open("nginx.conf").read())
    >>> after = before.add("10.0.0.6:80")
    >>> hl.moved(before, after, ["user:1", "user:2"]).to_pylist()
"""

from ._native import (
    __version__,
    Cluster,
    ConfigError,
    Error,
    KeyColumnError,
    ScenarioError,
    StepError,
    algorithms,
    moved,
)

__all__ = [
    "__version__",
    "Cluster",
    "ConfigError",
    "Error",
    "KeyColumnError",
    "ScenarioError",
    "StepError",
    "algorithms",
    "cluster",
    "moved",
]


def cluster(spec: "str | Cluster") -> Cluster:
    """A cluster from text that may be either kind: a page link (``https://…/?algo=…`` or
    ``?algo=…``) or a system's config. A :class:`Cluster` is returned as it is."""
    if isinstance(spec, Cluster):
        return spec
    text = spec.strip()
    if text.startswith("?") or text.startswith("http://") or text.startswith("https://"):
        return Cluster.from_link(text)
    return Cluster.from_config(spec)
