'''One description of each knob: the checks build their variants from
:mod:`microbench.knobs`, and ``microbench audit`` rewrites the check's own
benchmark-default command into exactly its realistic variant.  A knob
changed on one side and not the other fails here.'''

import os
import sys
from types import SimpleNamespace

import pytest

from microbench import knobs, paths
from microbench.audit import (fiocommand, fiojob, getopt, judge, network,
                              options, words)
from microbench.audit.findings import Where

sys.path.insert(0, paths.CHECKS)

import elbencho_storage                                       # noqa: E402
import fabtests_completion                                    # noqa: E402
import fio_cache_flags                                        # noqa: E402
import fio_completion_polling                                 # noqa: E402
import fio_data_reduction                                     # noqa: E402
import fio_fallocate                                          # noqa: E402
import fio_time_based_overwrite                               # noqa: E402
import ior_page_cache                                         # noqa: E402
from microbench.suite import launchers                        # noqa: E402
from microbench.tools.fio.output import command as fio_command  # noqa: E402
from microbench.tools.ior import command as ior_command       # noqa: E402
from microbench.tools.mdtest.checks import MdtestRounds       # noqa: E402
from microbench.tools.osu import OsuRounds                    # noqa: E402

GIB = 2**30


def audit(argv):
    context = judge.new_context('argv', 24 * GIB)
    report = judge.audit_argv(list(argv), context)
    assert not report.error, report.error
    return report


def rewrite_of(report, pitfall):
    found = [f for f in report.findings if f.pitfall == pitfall]
    assert found, [f.pitfall for f in report.findings]
    return found[0].realistic


def fio_settings(argv):
    job, = fiocommand.read_command_line(argv, 'argv').jobs
    out = {fiojob.canonical(o.name): o.value for o in job.settings}
    out.pop('buffered', None)
    out['direct'] = str(int(job.direct()[0]))
    return out


def fio_form(rounds, variant, **variables):
    '''A fio check's options of ``variant`` as the check builds them (its
    ``fio_options`` on an object with the rounds' name and variables).'''
    fake = type(rounds.__name__, (), {
        'block_size': '32k', 'runtime_s': knobs.FIO_RUNTIME_S, 'iodepth': 16,
        'flags': getattr(rounds, 'flags', None),
        'fills': getattr(rounds, 'fills', None), **variables,
        'log_options': lambda self: rounds.log_options(self)})()
    return rounds.fio_options(fake, variant)


def test_the_checks_read_the_knobs():
    assert fio_cache_flags.fio_cache_flags_rounds.flags is \
        knobs.FIO_CACHE_FLAGS
    assert ior_command.DEFENCES is knobs.IOR_DEFENCES
    assert launchers.BINDING is knobs.BINDING
    variants = fabtests_completion.fabtests_completion_rounds.variants
    assert set(variants) <= set(knobs.FABTESTS_COMPLETION)


@pytest.mark.parametrize('rounds, pitfall, default, realistic, variables', [
    (fio_cache_flags.fio_cache_flags_rounds, 'S1', 'buffered', 'direct',
     {'numjobs': 16, 'file_size': '4g'}),
    (fio_fallocate.fio_fallocate_rounds, 'S2', 'default', 'none',
     {'file_size': '64g'}),
    (fio_time_based_overwrite.fio_time_based_overwrite_rounds, 'S3',
     'small', 'large', {'small_file_size': knobs.FIO_SMALL_FILE_SIZE,
                        'large_file_size': knobs.FIO_LARGE_FILE_SIZE}),
    (fio_data_reduction.fio_data_reduction_rounds, 'S6', 'zeros',
     'incompressible', {'numjobs': 4, 'file_size': '16g'}),
    (fio_completion_polling.fio_completion_polling_rounds, 'S7', 'sqpoll',
     'interrupt', {'file_size': '1g', 'sqpoll_cpu': None}),
])
def test_fio_rewrite_is_the_checks_realistic_variant(rounds, pitfall,
                                                     default, realistic,
                                                     variables):
    argv = fio_command('fio', fio_form(rounds, default, **variables))
    rewritten = words.split(rewrite_of(audit(argv), pitfall))
    wanted = fio_settings(fio_command('fio', fio_form(rounds, realistic,
                                                      **variables)))
    got = fio_settings(rewritten)
    for name in ('sync', 'time_based', 'fallocate', 'zero_buffers'):
        # options at fio's default are written or left out alike
        for side in (got, wanted):
            if side.get(name) in ('0', 'native'):
                side.pop(name)
    assert got == wanted


@pytest.mark.parametrize('nodes, defence', [(2, 'reorder_fsync'),
                                            (1, 'odirect')])
def test_ior_rewrite_is_the_checks_defence(nodes, defence):
    shape = ior_command.shape_options('easy', '64g', 10)
    run = ior_command.build('ior', shape, ior_command.DEFENCES['none'], 30,
                            nodes, 2, summary=False)
    launch = ['srun', '-N', str(nodes), '--ntasks-per-node=2']
    report = audit([*launch, *run.argv])
    reads = [f for f in report.findings if 'without -C' in f.evidence]
    realistic = words.split(reads[0].realistic)[len(launch):]
    wanted = ior_command.build('ior', shape, ior_command.DEFENCES[defence],
                               30, nodes, 2, summary=False).argv
    table = options.getopt_table('ior')
    parsed = [getopt.parse(argv, table, 'IOR', Where('x'))[0]
              for argv in (realistic, wanted)]
    assert [sorted((g.name, g.value) for g in p) for p in parsed[:1]] == \
        [sorted((g.name, g.value) for g in parsed[1])]
    assert ior_page_cache.ior_page_cache_rounds.memory_per_node.default == \
        knobs.IOR_MEMORY_PER_NODE if hasattr(
            ior_page_cache.ior_page_cache_rounds.memory_per_node,
            'default') else True


def test_mdtest_rewrite_is_the_checks_stride():
    self = SimpleNamespace()
    none = MdtestRounds.options(self, 'easy.none', 100)
    node = MdtestRounds.options(self, 'easy.node', 100)
    report = audit(['mpirun', '-np', '4', '-ppn', '2', 'mdtest', *none])
    got = words.split(rewrite_of(report, 'S4'))[6:]
    assert sorted(got) == sorted(node)


def test_osu_rewrite_is_the_checks_multiple_buffers():
    self = SimpleNamespace(message_size=32768, window_size=64,
                           size_of=lambda benchmark: 32768,
                           program_path=lambda benchmark: benchmark,
                           two_ranks=lambda *argv: ' '.join(argv))
    single = OsuRounds.variant_command(self, 'osu_bw.single').split()
    multiple = OsuRounds.variant_command(self, 'osu_bw.multiple').split()
    report = audit(single)
    assert words.split(rewrite_of(report, 'N1')) == multiple


def test_fabtests_rewrite_is_the_checks_fd():
    rounds = fabtests_completion.fabtests_completion_rounds
    self = SimpleNamespace(message_size=100)
    spin = ['fi_msg_pingpong', *rounds.program_options(self, 'spin')]
    fd = ['fi_msg_pingpong', *rounds.program_options(self, 'fd')]
    report = audit(spin)
    assert words.split(rewrite_of(report, 'N2')) == fd
    assert network.WAITING == {v for v, w in
                               knobs.FABTESTS_COMPLETION.items() if w}


def test_elbencho_rewrite_is_the_checks_direct():
    rounds = elbencho_storage.elbencho_storage_rounds
    buffered = rounds.variant_options(None, 'buffered.grow')
    direct = rounds.variant_options(None, 'direct.grow')
    argv = ['elbencho', '-w', '-s', '1g', *buffered, '/scratch/file']
    report = audit(argv)
    got = words.split(rewrite_of(report, 'S1'))
    assert sorted(got) == sorted([*argv, *direct])


def test_every_knob_of_the_audit_is_a_knob_of_the_checks():
    '''The audit's rewrites name only the tables of microbench.knobs.'''
    source = ''.join(open(os.path.join(paths.LIBRARY, 'audit', name)).read()
                     for name in os.listdir(os.path.join(paths.LIBRARY,
                                                         'audit'))
                     if name.endswith('.py'))
    used = {name for name in dir(knobs) if name.isupper()
            and f'knobs.{name}' in source}
    assert used >= {'FIO_CACHE_FLAGS', 'FIO_FALLOCATE', 'FIO_LARGE_FILE_SIZE',
                    'IOR_DEFENCES', 'IOR_REORDER', 'IOR_FSYNC',
                    'MDTEST_STRIDES', 'OSU_BUFFERS', 'FABTESTS_COMPLETION',
                    'BINDING', 'ELBENCHO_IO'}
