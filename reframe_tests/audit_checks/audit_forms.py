'''The checks of ``microbench audit --measure``: a user's own fio job or
IOR command and its realistic form, round-robin through the suite's own
rounds (the same job skeleton, lock, scratch directory and cleanup,
witnesses and validation as the matching pitfall's check), and the gap the
matching check reports, named as it names it.

Not a pitfall of the suite: the forms come from an audit finding, as data
(the forms file of :mod:`microbench.audit.formsfile`, named by the
environment variable ``MICROBENCH_AUDIT_FORMS``; ``--measure`` writes it
and runs ``reframe -c`` on this file).  Without a forms file it registers
nothing, so ``reframe -c reframe_tests -R`` finds no check here.
'''

import os

import reframe as rfm
from reframe.core.builtins import fixture, parameter

from microbench.audit import formsfile
from microbench.suite.gap import GapCheck, rounds_of
from microbench.suite.skeleton import SCRATCH
from microbench.tools.fio import FioRounds, FioVariantCheck
from microbench.tools.ior import IorRounds, IorVariantCheck, command

#: The forms file of this run (None: no run of --measure)
FORMS = formsfile.from_environment(os.environ)
TOOL = FORMS['tool'] if FORMS else None
FIO = FORMS['fio'] if TOOL == 'fio' else {}
IOR = FORMS['ior'] if TOOL == 'ior' else {}


class audit_fio_rounds(FioRounds):
    '''The user's fio job and its realistic form, round-robin.'''

    variants = formsfile.FORMS
    page_cache_variants = tuple(FIO.get('page_cache_variants', ()))
    overwrite_variants = tuple(FIO.get('overwrite_variants', ()))
    witness_syscall = FIO.get('witness_syscall')
    witness_expect = {'yours': True, 'realistic': False}
    runtime_s = FIO.get('runtime_s', 0)
    block_size = FIO.get('block_size', '')
    darshan = list(FIO.get('darshan', ()))

    def fio_options(self, variant):
        options = dict(FORMS['forms'][variant])
        if FIO['filename']:
            options['filename'] = f'{SCRATCH}/{FIO["filename"]}'
        else:
            options['directory'] = SCRATCH
        return options


class audit_fio(FioVariantCheck):
    '''The figures of both forms of the user's fio job.'''

    form = parameter(list(formsfile.FORMS))
    knob = 'form'
    rounds = fixture(audit_fio_rounds, scope='environment')

    def _check_overwrite(self, overwrite):
        if FIO['judge_overwrite']:
            super()._check_overwrite(overwrite)


class audit_fio_gap(GapCheck):
    '''The user's form over the realistic one, as the pitfall's check
    names its gap.'''

    pitfall = audit_fio
    rounds = rounds_of(audit_fio)
    gaps = {FORMS['gap']: formsfile.FORMS} if TOOL == 'fio' else {}


def phases_first(form):
    '''IOR's arguments ``form`` with its phases first, as the suite's own
    commands put them and its residency witness splits them: ``-w -r``
    where the form writes and reads (IOR's default without either).'''
    writes = '-w' in form or '-r' not in form
    reads = '-r' in form or '-w' not in form
    return [*(['-w'] if writes else []), *(['-r'] if reads else []),
            *(word for word in form if word not in ('-w', '-r'))]


class audit_ior_rounds(IorRounds):
    '''The user's IOR command and its realistic form, round-robin.'''

    variants = formsfile.FORMS
    tasks_per_node = IOR.get('tasks_per_node', 1)

    def point(self, variant):
        return 'user', variant, 1, self.tasks_per_node

    def ior_commands(self, variant, deadline_s=None, summary=True):
        '''The user's form's one IOR command (the suite's rounds run a
        variant's commands in order).'''
        argv = (self.program_path(),
                *phases_first(FORMS['forms'][variant]), '-o',
                command.TESTFILE)
        if summary:
            argv += ('-O', 'summaryFormat=JSON', '-O',
                     'summaryFile=' + command.SUMMARY_FILE)
        return (command.IorCommand(argv, 1, self.tasks_per_node,
                                   command.asked_of(argv, 1,
                                                    self.tasks_per_node)),)


class audit_ior(IorVariantCheck):
    '''The figures of both forms of the user's IOR command.'''

    form = parameter(list(formsfile.FORMS))
    knob = 'form'
    rounds = fixture(audit_ior_rounds, scope='environment')


class audit_ior_gap(GapCheck):
    '''The user's form over the realistic one, as ``ior_page_cache``
    names its gap.'''

    pitfall = audit_ior
    rounds = rounds_of(audit_ior)
    gaps = ({FORMS['gap']: (*formsfile.FORMS, IOR['figure'])}
            if TOOL == 'ior' else {})


#: The checks of each tool, registered for the forms file's tool only
CHECKS = {'fio': (audit_fio, audit_fio_gap), 'ior': (audit_ior,
                                                      audit_ior_gap)}
for check in CHECKS.get(TOOL, ()):
    rfm.simple_test(check)
