'''An input to its findings: what kind of input it is (a command line, a
fio job file, a batch script, a Darshan log), every benchmark invocation in
it, and each judged by its tool's rules.'''

import os
import re
from dataclasses import dataclass, field

from microbench.audit import batch, darshanlog, elbencho, fio, ior, network
from microbench.audit import words
from microbench.audit.context import Context, node_memory, osu_version_in
from microbench.audit.findings import Unreadable, Where

#: A Darshan log's names (its content is told by
#: :func:`.darshanlog.is_log` too)
DARSHAN_EXTENSIONS = ('.darshan', '.darshan_partial')


#: libfabric's own programs, not fabtests' (fi_pingpong is libfabric's
#: util/pingpong.c, a program of its own, not fabtests')
NOT_FABTESTS = ('fi_info', 'fi_pingpong', 'fi_strerror')

#: The programs the audit judges, as its refusal names them
KNOWN = ("fio, ior, mdtest, elbencho, osu_*, fabtests' fi_* (not "
         "libfabric's " + ', '.join(NOT_FABTESTS) + ')')


def tool_of(program):
    '''The judge of a benchmark program, or None.'''
    if program == 'fio':
        return 'fio'
    if program.lower() in ('ior', 'mdtest', 'elbencho'):
        return program.lower()
    if program.startswith('osu_'):
        return 'osu'
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
    '''A reader of the job files an input names (relative to its
    directory); a file that is not there raises FileNotFoundError.'''
    def read(path):
        full = path if os.path.isabs(path) else os.path.join(
            context.directory, path)
        with open(full, 'rb') as fp:
            return decode(fp.read(), path)
    return read


def decode(data, name):
    '''Text of an input's bytes.

    :raises Unreadable: for a binary file.
    '''
    if b'\0' in data:
        raise Unreadable(f'{name}: a binary file (NUL bytes), not a command '
                         f'line, job file or script')
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError as err:
        raise Unreadable(f'{name}: a binary file (not UTF-8 at byte '
                         f'{err.start})') from None


def kind_of(name, text):
    '''``fio``, ``script`` or ``command`` for a text input.'''
    stripped = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not stripped:
        raise Unreadable(f'{name}: empty: nothing to judge')
    if name.endswith(('.sh', '.bash', '.slurm', '.pbs', '.sbatch')) or \
            stripped[0].startswith('#!') or any(
            ln.startswith(batch.DIRECTIVES) for ln in stripped):
        return 'script'
    sections = [ln for ln in stripped if ln.startswith('[')]
    if name.endswith('.fio') or (sections and re.match(r'^\[[^\]]*\]?$',
                                                       stripped[0])):
        return 'fio'
    if sections and all(re.match(r'^([;#\[]|[\w.-]+(=|$))', ln)
                        for ln in stripped):
        return 'fio'
    return 'command'


def audit_bytes(name, data, context, argv=False):
    '''The :class:`Report` of one input's bytes.'''
    report = Report(name)
    try:
        if name.endswith(DARSHAN_EXTENSIONS) or darshanlog.is_log(data):
            report.kind = 'darshan'
            report.invocations = darshanlog.judge(name, data, context,
                                                  audit_argv)
            return report
        text = decode(data, name)
        report.kind = 'command' if argv else kind_of(name, text)
        report.invocations = _judge_text(name, text, report.kind, context,
                                         argv)
    except Unreadable as err:
        report.error = str(err)
    return report


def _judge_text(name, text, kind, context, argv):
    if kind == 'fio':
        return fio.judge_job_file(name, text, context, reader_for(context),
                                  context.sections)
    version = osu_version_in(text)
    if version and not context.osu_version:
        context = context.with_(osu_version=version,
                                osu_version_from=f'{name}')
    if kind == 'script':
        job = batch.directives(text)
        context = context.with_(
            whole_run=True, job_nodes=job.nodes, job_per_node=job.per_node,
            job_tasks=job.tasks, osu_version=context.osu_version or
            job.osu_version, osu_version_from=context.osu_version_from or
            (f'{name} {job.osu_version_from}' if job.osu_version else None))
        found = []
        for command in batch.commands(name, text, batch.job_env(job)):
            found += _judge_command(command, context, required=False,
                                    striped=job.striped)
        if not found:
            raise Unreadable(f'{name}: no benchmark command (fio, IOR, '
                             f'mdtest, OSU, fabtests, elbencho) in it')
        return found
    commands = batch.commands(name, text, prompt=True)
    found = []
    for command in commands:
        found += _judge_command(command, context, required=argv or
                                len(commands) == 1)
    if not found:
        first = commands[0].words[0] if commands else text.split()[0]
        raise Unreadable(f'{name}: {first!r} is not a benchmark the audit '
                         f'knows ({KNOWN})')
    return found


def _judge_command(command, context, required, striped=False):
    launch = words.launch(command.words, tool_of)
    tool = tool_of(launch.program)
    if tool is None:
        if required:
            raise Unreadable(f'{command.where}: {launch.program or "?"!r} '
                             f'is not a benchmark the audit knows ({KNOWN})')
        return []
    binding, said = batch.binding_of(command.env)
    if binding and launch.binding is None and launch.launcher:
        launch.binding, launch.binding_words = binding, [said]
    context = context.with_(repeats=command.repeats,
                            repeats_where=command.repeats_where,
                            env={**context.env, **command.env})
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
    return elbencho.judge_elbencho(launch, where, context)


def audit_argv(argv, context):
    '''The :class:`Report` of a command line given as words.'''
    report = Report('argv', 'command')
    try:
        line = ' '.join(argv)
        command = batch.Command(Where('argv', None, line), list(argv), 1,
                                None, {})
        report.invocations = _judge_command(command, context, required=True)
    except Unreadable as err:
        report.error = str(err)
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
                   directory=directory, sections=tuple(sections))
