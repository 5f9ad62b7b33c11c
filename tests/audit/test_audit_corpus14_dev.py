'''Readings the fourteenth corpus's development half taught (issue 46;
tests/data/audit/corpus14.yaml, labelled blind to the audit), each held
on its input.  No held-out input is named here.'''

import functools

import pytest

from later_corpora import audited as audited_in, pitfalls
from microbench.audit import batch, shellloops
from microbench.audit.findings import CERTAIN

#: An input of the corpus, audited
audited = functools.partial(audited_in, 'corpus14')


def test_an_array_s_empty_element_is_no_word():
    # IOROPTIONS=("" "-z"); for ioop in "${IOROPTIONS[@]}"; do ...
    # ior ... --posix.odirect $ioop -o ...: "" leaves no word
    report = audited('batch-redirect-beegfs-cephfs-ior-sweep.sh')
    assert report.error is None and report.invocations
    assert all(pitfalls(inv) == {'M1': CERTAIN}
               for inv in report.invocations)


@pytest.mark.parametrize('items, words', [
    ('"" "-z"', ['', '-z']),
    ("'a b' c", ['a b', 'c']),
    ('1 2 3', ['1', '2', '3'])])
def test_a_loop_s_items_are_the_shell_s_words(items, words):
    assert shellloops.items_of(items, {}) == words


def test_a_job_script_given_to_sbatch_on_its_standard_input():
    # submit="sbatch --reservation=$res"; $submit << EOF ... mpirun -n
    # \${SLURM_NTASKS} osu_bw ... EOF
    report = audited('batch-script-mit-orcd-mpi-p2p-run.sh')
    assert [inv.where.text.rsplit(' ', 1)[-1] for inv in
            report.invocations] == ['osu_bw', 'osu_latency']
    assert all('N1' in pitfalls(inv) for inv in report.invocations)


@pytest.mark.parametrize('script, runs', [
    ('sbatch <<EOF\nmpirun -np 2 osu_bw\nEOF\n', True),
    ('bash <<EOF\nfio --name=t --rw=read --size=1g\nEOF\n', True),
    ('cat > job.sh <<EOF\nmpirun -np 2 osu_bw\nEOF\n', False),  # a file
    ('cat <<EOF\nmpirun -np 2 osu_bw\nEOF\n', False)])        # printed
def test_which_here_documents_run(script, runs):
    commands = batch.commands('x.sh', '#!/bin/bash\n' + script)
    assert any(c.words[-1] in ('osu_bw', '--size=1g')
               for c in commands) is runs
