'''Readings the sixth corpus's development half taught (issue 46;
tests/data/audit/corpus6.yaml, labelled blind to the audit), each held
on its input.  No held-out input is named here.'''

from later_corpora import audited as audited_in, pitfalls


def audited(name):
    return audited_in('corpus6', name)


def test_an_osu_benchmark_built_under_a_machine_s_name():
    # $ srun -n2 -c8 --cpu-bind=thread ... ./osu_bw-tioga -m ... D D
    (invocation,) = audited(
        'renamed-or-glob-program-mpibind-osu-bw-tioga.txt').invocations
    assert 'N1' in pitfalls(invocation)             # osu_bw's one buffer


def test_a_container_s_args_that_start_with_the_program():
    # image: mayadata/fio, args: [fio, /config/fio.conf]: fio runs the
    # job file, not a job file named fio; the ConfigMap's job is judged
    # where it is written
    report = audited('other-mayastor-k8s-fio.yaml')
    command, *jobs = report.invocations
    assert command.where.text == 'fio /config/fio.conf'
    assert any('/config/fio.conf: not found here' in note
               for note in command.not_judged)
    assert [job.where.text for job in jobs] == [
        f'[volume-{k}]' for k in range(1, 5)]
