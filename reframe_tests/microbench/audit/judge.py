'''An input to its findings: what kind of input it is (a command line, a
fio job file, a batch script, a Darshan log), every benchmark invocation in
it, and each judged by its tool's rules.'''

import re
from collections import ChainMap
from dataclasses import dataclass, field

from microbench.audit import (batch, bounds, darshanlog, elbencho,
                              elbenchofile, fio, io500, ior, network,
                              reframecheck, words)
from microbench.audit.bounds import excerpt
from microbench.audit.context import Context, node_memory, osu_version_in
from microbench.audit.findings import Finding, Unreadable, Where, depends

#: A Darshan log's names (its content is told by
#: :func:`.darshanlog.is_log` too)
DARSHAN_EXTENSIONS = ('.darshan', '.darshan_partial')


#: libfabric's own programs, not fabtests' (fi_pingpong, libfabric's
#: util/pingpong.c, a program of its own, is judged on its own)
NOT_FABTESTS = ('fi_info', 'fi_pingpong', 'fi_strerror')

#: The programs the audit judges, as its refusal names them
KNOWN = ("fio, ior, mdtest, elbencho, osu_*, libfabric's fi_pingpong, "
         "fabtests' fi_* (not libfabric's fi_info, fi_strerror)")


def tool_of(program):
    '''The judge of a benchmark program, or None.'''
    if program == 'fio':
        return 'fio'
    if program.lower() in ('ior', 'mdtest', 'elbencho'):
        return program.lower()
    if program.startswith('osu_'):
        return 'osu'
    if program == 'fi_pingpong':
        return 'pingpong'
    if program.startswith('fi_') and program not in NOT_FABTESTS:
        return 'fabtests'
    return None


@dataclass
class Report:
    '''What the audit says of one input.'''

    name: str
    kind: str = None
    invocations: list = field(default_factory=list)
    #: why the input could not be judged (exit 2), or None
    error: str = None

    @property
    def findings(self):
        return [f for inv in self.invocations for f in inv.findings]

    def as_dict(self):
        return {'input': self.name, 'kind': self.kind, 'error': self.error,
                'clean': self.error is None and not self.findings,
                'invocations': [i.as_dict() for i in self.invocations]}


def reader_for(context):
    '''The reader of the files an input includes or names (relative to
    its directory), within the caps (:class:`~.bounds.Reader`); a file
    that is not there raises FileNotFoundError.'''
    return context.reader or bounds.Reader(context.directory)


#: What the audit reads an input as (a report's ``kind``), with how it
#: tells
INPUT_KINDS = {
    'command': 'a command line (a file of one, or the audit\'s own '
               'arguments)',
    'fio': 'a fio job file (sections of name=value lines)',
    'script': 'a batch or shell script (its name, a #! line or a '
              'scheduler\'s directives)',
    'darshan': 'a Darshan log (its name or its header)',
    'io500': 'an IO500 configuration (a section only IO500 has)',
    'elbencho-config': 'an elbencho configuration file (name=value lines '
                       'of its long options)',
    'reframe-check': 'a ReFrame check (a .py file that imports ReFrame), '
                     'parsed, never imported',
}
(COMMAND, FIO_JOB, SCRIPT, DARSHAN, IO500, ELBENCHO_CONFIG,
 REFRAME_CHECK) = INPUT_KINDS

#: Text of an input's bytes (:func:`.bounds.decode`)
decode = bounds.decode


def kind_of(name, text):
    '''The :data:`INPUT_KINDS` word of a text input.'''
    stripped = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not stripped:
        raise Unreadable(f'{name}: empty: nothing to judge')
    if name.endswith(('.sh', '.bash', '.slurm', '.pbs', '.sbatch')) or \
            stripped[0].startswith('#!') or any(
            ln.startswith(batch.DIRECTIVES) for ln in stripped):
        return SCRIPT
    if name.endswith('.py') and reframecheck.is_check(text):
        return REFRAME_CHECK
    if io500.is_config(text):
        return IO500
    if elbenchofile.is_config(text):
        return ELBENCHO_CONFIG
    sections = [ln for ln in stripped if ln.startswith('[')]
    if name.endswith('.fio') or (sections and re.match(r'^\[[^\]]*\]?$',
                                                       stripped[0])):
        return FIO_JOB
    if sections and all(re.match(r'^([;#\[]|[\w.-]+(=|$))', ln)
                        for ln in stripped):
        return FIO_JOB
    return COMMAND


def audit_bytes(name, data, context, argv=False):
    '''The :class:`Report` of one input's bytes: its findings, or why it
    cannot be judged, in one line, whatever the bytes.'''
    report = Report(name)
    try:
        if context.reader is None:
            context = context.with_(reader=bounds.Reader(context.directory))
        context.reader.count(name, len(data))
        _judge_bytes(report, name, data, context, argv)
    except Unreadable as err:
        report.error = str(err)
        report.invocations = []
    except Exception as err:             # a bug of the audit, said in one
        report.error = failed(name, err)  # line, never a traceback
        report.invocations = []
    return report


#: What an error of the audit itself says (tests look for it)
FAILED = 'the audit failed on it'


def failed(name, err):
    '''The one line of an exception the audit did not expect.'''
    return str(Unreadable(f'{name}: {FAILED} ({type(err).__name__}: '
                          f'{excerpt(str(err))}): a bug of the audit, '
                          f'please report it with the input'))


def _judge_bytes(report, name, data, context, argv):
    if name.endswith(DARSHAN_EXTENSIONS) or darshanlog.is_log(data):
        report.kind = DARSHAN
        report.invocations = darshanlog.judge(name, data, context,
                                              audit_argv)
        return
    text = decode(data, name)
    report.kind = COMMAND if argv else kind_of(name, text)
    report.invocations = _judge_text(name, text, report.kind, context, argv)


def _judge_text(name, text, kind, context, argv):
    if kind == IO500:
        return _judge_io500(name, text, context)
    if kind == REFRAME_CHECK:
        context = context.with_(whole_run=True)
        return bounds.judged(
            reframecheck.commands(name, text),
            lambda command: _judge_command(command, context, required=True),
            'commands')
    if kind == ELBENCHO_CONFIG:
        argv = elbenchofile.argv_of(name, text)
        where = Where(name, None, ' '.join(argv))
        return _judge_command(batch.Command(where, argv, 1, None, {}),
                              context, required=True)
    if kind == FIO_JOB:
        return fio.judge_job_file(name, text, context, reader_for(context),
                                  context.sections)
    version = osu_version_in(text)
    if version and not context.osu_version:
        context = context.with_(osu_version=version,
                                osu_version_from=f'{name}')
    if kind == SCRIPT:
        job = batch.directives(text)
        context = context.with_(
            whole_run=True, job_nodes=job.nodes, job_per_node=job.per_node,
            job_tasks=job.tasks, osu_version=context.osu_version or
            job.osu_version, osu_version_from=context.osu_version_from or
            (f'{name} {job.osu_version_from}' if job.osu_version else None))
        found = bounds.judged(
            batch.commands(name, text, batch.job_env(job),
                           reader=reader_for(context)),
            lambda command: _judge_command(command, context, required=False,
                                           striped=job.striped), 'commands')
        if not found:
            raise Unreadable(f'{name}: no benchmark command (fio, IOR, '
                             f'mdtest, OSU, fabtests, elbencho) in it')
        return found
    commands = batch.commands(name, text, prompt=True,
                              reader=reader_for(context))
    for command in commands:
        # elbencho's arguments without the program (a container's)
        if command.words and tool_of(command.words[0]) is None and \
                elbenchofile.is_argument_list(command.words):
            command.words = ['elbencho', *command.words]
    found = bounds.judged(
        commands, lambda command: _judge_command(
            command, context, required=argv or len(commands) == 1),
        'commands')
    if not found:
        first = commands[0].words[0] if commands else text.split()[0]
        raise Unreadable(f'{name}: {excerpt(first)} is not a benchmark the '
                         f'audit knows ({KNOWN})')
    return found


#: What a data directory's path may say of a file system that is not
#: Lustre (IO500's ior-hard shared file is S5's only on Lustre)
NOT_LUSTRE = re.compile(r'beegfs|gpfs|nfs|vast|weka|quobyte|daos|ceph|'
                        r'cephfs|panfs|/gs/', re.IGNORECASE)


def _judge_io500(name, text, context):
    '''The invocations of an IO500 configuration's phases
    (:mod:`.io500`): with ``drop-caches`` no read or stat is served by a
    cache (S4 dropped, said); ior-hard's shared file on a data directory
    not said to be another file system may be on Lustre at its default
    stripe (S5, depends).'''
    found = []
    phases, dropped = io500.commands(name, text)
    for phase, command in phases:
        for invocation in _judge_command(command, context, required=True):
            if dropped:
                invocation.findings = [finding for finding in
                                       invocation.findings
                                       if finding.pitfall != 'S4']
                invocation.not_judged.append(
                    'S4: drop-caches = TRUE: the caches are purged before '
                    'each phase')
            if phase.startswith('ior-hard') and not any(
                    finding.pitfall == 'S5' for finding in
                    invocation.findings):
                _shared_file_doubt(invocation, command)
            found.append(invocation)
    return found


def _shared_file_doubt(invocation, command):
    '''S5 (depends) on ior-hard's one shared file, where its data
    directory may be Lustre's.'''
    words = command.words
    api = words[words.index('-a') + 1].upper() if '-a' in words else 'POSIX'
    path = words[words.index('-o') + 1]
    if api not in ('POSIX', 'MPIIO') or NOT_LUSTRE.search(path):
        return
    invocation.findings.append(Finding(
        'S5', f'ior-hard writes one shared file ({path}) through {api}',
        command.where, depends('the data directory being on Lustre at its '
                               'default stripe (one OST)')))


#: The longest path a refusal names whole (Linux's PATH_MAX)
PATH_CHARS = 4096


def _judge_command(command, context, required, striped=False,
                   given=False):
    '''The invocations of one command; ``required``: an unknown program
    is an error, not a line to pass over; ``given``: the command is the
    audit's own arguments (its first word may be a file name
    mistyped).'''
    launch = words.launch(command.words, tool_of)
    tool = tool_of(launch.program)
    if tool is None:
        if given and command.words and not launch.prefix:
            first = command.words[0]
            if '/' in first:
                # a path: a file that is not there, named whole
                raise Unreadable(f'{excerpt(first, PATH_CHARS)}: no such '
                                 f'file (nor a benchmark the audit knows: '
                                 f'{KNOWN})')
            raise Unreadable(f'{command.where}: {excerpt(first)} '
                             f'is not a benchmark the audit knows, nor a '
                             f'file here (it knows {KNOWN})')
        if required:
            raise Unreadable(f'{command.where}: '
                             f'{excerpt(launch.program or "?")} is not a '
                             f'benchmark the audit knows ({KNOWN})')
        return []
    found = _judge_tool(tool, launch, command, context, striped)
    if command.unswept:
        for invocation in found:
            invocation.not_judged.append(
                f'{command.unswept} more configurations of this sweep of '
                f'loop variables: the audit judges the first '
                f'{bounds.MAX_SWEEP}')
    return found


def _judge_tool(tool, launch, command, context, striped):
    binding, said = batch.binding_of(command.env)
    if binding and launch.binding is None and launch.launcher:
        launch.binding, launch.binding_words = binding, [said]
    context = context.with_(repeats=command.repeats,
                            repeats_where=command.repeats_where,
                            env=ChainMap(command.env, context.env))
    where = command.where
    if tool == 'fio':
        return fio.judge_command(launch, where, context, reader_for(context))
    if tool == 'ior':
        found = ior.judge_ior(launch, where, context)
        if striped:
            for inv in found:
                inv.findings = [f for f in inv.findings if f.pitfall != 'S5']
        return found
    if tool == 'mdtest':
        return ior.judge_mdtest(launch, where, context)
    if tool == 'osu':
        return network.judge_osu(launch, where, context)
    if tool == 'fabtests':
        return network.judge_fabtests(launch, where, context)
    if tool == 'pingpong':
        return network.judge_pingpong(launch, where, context)
    return elbencho.judge_elbencho(launch, where, context)


def audit_argv(argv, context):
    '''The :class:`Report` of a command line given as words: its
    findings, or why it cannot be judged, in one line.'''
    report = Report('argv', COMMAND)
    try:
        if context.reader is None:
            context = context.with_(reader=bounds.Reader(context.directory))
        line = ' '.join(argv)
        command = batch.Command(Where('argv', None, line), list(argv), 1,
                                None, {})
        report.invocations = _judge_command(command, context, required=True,
                                            given=context.name == 'argv')
    except Unreadable as err:
        report.error = str(err)
        report.invocations = []
    except Exception as err:             # a bug of the audit: one line
        report.error = failed('argv', err)
        report.invocations = []
    return report


def new_context(name, memory=None, memory_of=None, osu_version=None,
                directory='.', sections=()):
    '''The :class:`~.context.Context` of an input: the memory of the node
    that runs it (default: this node's), the OSU version where given, the
    directory its job files are read from, fio sections to judge.'''
    return Context(name=name, memory=memory or node_memory(),
                   memory_of=memory_of or 'this node',
                   osu_version=osu_version,
                   osu_version_from='--osu-version' if osu_version else None,
                   directory=directory, sections=tuple(sections),
                   reader=bounds.Reader(directory))
