'''A fourth set of real public inputs (tests/data/audit/probe2; each
file's source and what the audit does with it in its SOURCES.tsv),
gathered after the rules of issue 46 were written, apart from every
corpus (inputs sharing more than 40 % of their lines with a corpus or
probe file were dropped unseen): batch scripts of IOR, mdtest, OSU, fio,
elbencho and fabtests, other sites' ReFrame checks of OSU, an IO500
launch script.  Ten are read; two are refused, each for what it is.'''

import probesets


def audited(name):
    return probesets.audited('probe2', name)


def test_blue_gene_q_runjob_runs_ior_on_512_nodes():
    report = audited('tokio-abc_run-cron-benchmarks-mira.sh')
    (invocation,) = report.invocations
    assert invocation.tool == 'IOR'
    assert invocation.realistic.startswith('runjob -n 8192 -p 16 ')
    # -w -r without -C on 8192 tasks: each reads back its own node's data
    assert 'S4' in {f.pitfall for f in invocation.findings}
