"""The README's Dask recipe: a seed range as tasks on a LocalCluster of two
workers gives the seeds one process finds."""

import re

import pytest

from conftest import ROOT

import dgnkit

distributed = pytest.importorskip("distributed", reason="Dask is not installed (pip install 'dask[distributed]')")


def readme_recipe():
    """The recipe as the README gives it (its function, not the run)."""
    text = (ROOT / "python" / "README.md").read_text()
    block = next(b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "def find_on" in b)
    code = block.split("with Client(")[0]
    scope = {}
    exec(code, scope)
    return scope["find_on"]


def test_a_search_on_two_workers_is_one_process_s():
    find_on = readme_recipe()
    query, seeds = "bigrm and oracle.depth == 5", range(0, 400_000)
    alone = dgnkit.find(query, seeds=seeds, game="nethack-3.6")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            spread = find_on(client, query, seeds, step=50_000, game="nethack-3.6")
            assert len(client.scheduler_info()["workers"]) == 2
            # An error on a worker comes back as the same DgnError.
            with pytest.raises(dgnkit.DgnError, match="nope"):
                find_on(client, query, range(0, 10), game="nope")
    assert spread == alone
    assert [m["seed"] for m in spread] == sorted(m["seed"] for m in spread)
