'''IO500's driver scripts read as they run (microbench/audit/io500run.py,
io500v1.py, shellflow.py): IO500/io500's io500.sh (the io500 program, its
configuration not in the file), a site's script that writes its
configuration in a here-document, the first driver's site script that
sources io500_fixed.sh, and io500_fixed.sh itself (its phases run by its
myrun function); real files of the second corpus's development half
(tests/data/audit/corpus2, each with its source in corpus2.yaml).'''

from corpus2 import audited


def phases(report):
    '''{phase: its invocation} of an IO500 program's report.'''
    return {inv.where.text.split(']')[0][1:]: inv
            for inv in report.invocations}


def pitfalls(invocation):
    return sorted(f.pitfall for f in invocation.findings)


def test_io500s_own_driver_runs_the_io500_program_on_defaults():
    report = audited('io500-sh-io500.sh')
    assert report.error is None and report.kind == 'script'
    said = phases(report)
    assert 'ior-easy-write' in said and 'mdtest-hard-read' in said
    read = said['ior-easy-read']
    # its launcher, and the configuration it is not given said
    assert read.where.text.startswith('[ior-easy-read] mpiexec -np 2 ')
    assert any("IO500's defaults" in note for note in read.not_judged)
    # 2 ranks of a job of 6 a node: both on one node, -C -Q 1 reads back
    # the node's own cache; one run of each phase
    assert pitfalls(read) == ['M1', 'S4']
    # ior-hard's one shared file, its file system not said
    assert 'S5' in pitfalls(said['ior-hard-write'])


def test_a_configuration_written_in_a_here_document_is_the_runs():
    report = audited('io500-sh-pantherman-quick.sh')
    assert report.error is None
    said = phases(report)
    write = said['ior-easy-write']
    assert '-t 2m -b 2048m' in write.where.text
    assert '-n 1024' in said['mdtest-easy-write'].where.text
    assert not any("IO500's defaults" in note for note in write.not_judged)
    # salloc -n4 --ntasks-per-node 2: two nodes, -C -Q 1 reads the other
    assert 'S4' not in pitfalls(said['ior-easy-read'])


def test_a_site_script_sourcing_the_first_driver_runs_its_phases():
    report = audited('io500-sh-sandia.sh')
    assert report.error is None
    tools = [inv.tool for inv in report.invocations]
    assert tools.count('IOR') == 4 and tools.count('mdtest') == 5
    texts = [inv.realistic or '' for inv in report.invocations]
    # the variables the script set: its launcher, binary and parameters
    assert any(t.startswith('mpirun -np 2 ') and '/bin/ior -w -t 2048k'
               in t for t in texts)
    read = report.invocations[4]           # ior_easy read, one node
    assert 'S4' in pitfalls(read)


def test_the_first_drivers_own_phases_through_its_myrun_function():
    report = audited('shell-variable-program-io500-fixed.sh')
    assert report.error is None
    ior = [inv for inv in report.invocations if inv.tool == 'IOR']
    assert len(ior) == 4
    # the command myrun runs: its launcher's variables, then the phase's
    assert all(inv.where.text.startswith('myrun "$io500_ior_cmd')
               for inv in ior)
    assert all(inv.realistic.startswith('$io500_mpirun $io500_mpiargs '
                                        '$io500_ior_cmd') and
               '-C -Q 1' in inv.realistic for inv in ior)
    # its programs are the caller's variables, read by their names
    notes = [note for inv in ior for note in inv.not_judged]
    assert any("'$io500_ior_cmd' read as ior" in note for note in notes)
    assert any('S5' in pitfalls(inv) for inv in ior)


def test_a_script_that_exits_first_runs_nothing_and_says_so():
    report = audited('io500-sh-io500app.sh')
    # read, and clean: nothing runs, said; not unreadable
    assert report.invocations == [] and report.error is None
    assert ':7: the script exits here' in report.note
    assert 'nothing runs' in report.note
    assert report.as_dict()['clean'] is True
