'''An input to its findings: what kind of input it is (a command line, a
fio job file, a batch script, a Darshan log), every benchmark invocation in
it, and each judged by its tool's rules.'''

from collections import ChainMap
from dataclasses import dataclass, field

from microbench.audit import (batch, batchjob, bounds, darshanlog, dockerfile,
                              elbencho, elbenchofile, fiocommand, fioinputs,
                              getopt, io500run, ior, iorscript, markdown,
                              network, readable, reframecheck, runfabtests,
                              words, yamlfile)
from microbench.audit.bounds import excerpt
from microbench.audit.context import Context, node_memory, osu_version_in
from microbench.audit.programs import KNOWN, canonical, tool_of
from microbench.audit.findings import Unreadable, Where
from microbench.audit.kinds import (COMMAND, DARSHAN, DOCKERFILE,
                                    ELBENCHO_CONFIG, FIO_JOB, IO500,
                                    IOR_SCRIPT, MARKDOWN, REFRAME_CHECK,
                                    SCRIPT, YAML, kind_of)

#: A Darshan log's names (its content is told by
#: :func:`.darshanlog.is_log` too)
DARSHAN_EXTENSIONS = ('.darshan', '.darshan_partial')


@dataclass
class Report:
    '''What the audit says of one input.'''

    name: str
    kind: str = None
    invocations: list = field(default_factory=list)
    #: why the input could not be judged (exit 2), or None
    error: str = None
    #: why a readable input runs no benchmark (a script that exits before
    #: any), or None
    note: str = None
    #: the commands of a script, check or IOR script the audit could not
    #: read, each why in one line; the others are judged (a shell goes on
    #: past a command that fails, unless ``set -e``)
    not_read: list = field(default_factory=list)

    @property
    def findings(self):
        return [f for inv in self.invocations for f in inv.findings]

    def as_dict(self):
        return {'input': self.name, 'kind': self.kind, 'error': self.error,
                'note': self.note, 'not_read': list(self.not_read),
                'clean': self.error is None and not self.findings,
                'invocations': [i.as_dict() for i in self.invocations]}


def reader_for(context):
    '''The reader of the files an input includes or names (relative to
    its directory), within the caps (:class:`~.bounds.Reader`); a file
    that is not there raises FileNotFoundError.'''
    return context.reader or bounds.Reader(context.directory)


class NothingRuns(Exception):
    '''A readable input that runs no benchmark (said, clean).'''


#: Text of an input's bytes (:func:`.bounds.decode`)
decode = bounds.decode


def audit_bytes(name, data, context, argv=False):
    '''The :class:`Report` of one input's bytes: its findings, or why it
    cannot be judged, in one line, whatever the bytes.'''
    report = Report(name)
    try:
        if context.reader is None:
            context = context.with_(reader=bounds.Reader(context.directory))
        context.reader.count(name, len(data))
        _judge_bytes(report, name, data, context, argv)
    except NothingRuns as err:
        report.note = str(err)
        report.invocations = []
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
    report.invocations = _judge_text(name, text, report.kind, context, argv,
                                     report.not_read)


def _judge_text(name, text, kind, context, argv, refused):
    version = osu_version_in(text)
    if version and not context.osu_version:
        context = context.with_(osu_version=version,
                                osu_version_from=f'{name}')
    if kind == IO500:
        return io500run.judge_config(name, text, context, _required)
    if kind == REFRAME_CHECK:
        context = context.with_(whole_run=True)
        return readable.judged_each(
            reframecheck.commands(name, text, reader_for(context)),
            lambda command: _judge_command(command, context, required=True),
            refused)
    if kind in (MARKDOWN, YAML, DOCKERFILE):
        if kind == MARKDOWN:
            commands = batch.commands(name, markdown.script_of(text),
                                      prompt=True, reader=reader_for(context))
            what = 'a Markdown document none of whose code blocks runs'
        elif kind == DOCKERFILE:
            commands = batch.commands(name, dockerfile.script_of(text),
                                      reader=reader_for(context))
            what = 'a Dockerfile none of whose RUN, CMD, ENTRYPOINT runs'
        else:
            context = context.with_(whole_run=True)
            jobs = []
            commands = _elbencho_named(yamlfile.commands(
                name, text, reader_for(context), jobs))
            context = context.with_(jobs_here=bool(jobs))
            what = 'a YAML file none of whose values runs'
        found = readable.judged_each(
            commands, lambda command: _judge_command(command, context,
                                                     required=False),
            refused)
        if kind == YAML:
            found += fioinputs.judge_embedded(name, jobs, context,
                                              reader_for(context), refused)
        if not found and refused:
            raise Unreadable(refused[0])
        if not found:
            raise Unreadable(f'{name}: {what} a benchmark ({KNOWN})')
        return found
    if kind == IOR_SCRIPT:
        return readable.judged_each(iorscript.commands(name, text),
                                    lambda test: _required(test, context),
                                    refused)
    if kind == ELBENCHO_CONFIG:
        argv = elbenchofile.argv_of(name, text)
        where = Where(name, None, ' '.join(argv))
        return _judge_command(batch.Command(where, argv, 1, None, {}),
                              context, required=True)
    if kind == FIO_JOB:
        return fioinputs.judge_job_file(name, text, context,
                                        reader_for(context), context.sections)
    if kind == SCRIPT:
        job = batchjob.directives(text)
        context = context.with_(
            whole_run=True, job_nodes=job.nodes, job_per_node=job.per_node,
            job_tasks=job.tasks, osu_version=context.osu_version or
            job.osu_version, osu_version_from=context.osu_version_from or
            (f'{name} {job.osu_version_from}' if job.osu_version else None))
        ended, drops = [], [0]

        def judge_one(command):
            dropped = context.with_(caches_dropped=command.drops > drops[0])
            judged = _judge_command(command, dropped, required=False,
                                    striped=job.striped or
                                    job.file_system is not None)
            for invocation in judged if job.file_system else ():
                if invocation.tool == 'IOR':
                    invocation.not_judged.append(
                        f'S5: the script names {job.file_system} as its '
                        f'file system, and Lustre nowhere')
            if judged:
                drops[0] = command.drops    # a benchmark ran since
            return judged

        found = readable.judged_each(
            batch.commands(name, text, batchjob.job_env(job),
                           reader=reader_for(context), ended=ended),
            judge_one, refused)
        if not found and ended:
            raise NothingRuns(f'{ended[0]}: the script exits here '
                              f'({excerpt(ended[0].text)}) before any '
                              f'benchmark command: nothing runs')
        if not found:
            raise Unreadable(f'{name}: no benchmark command (fio, IOR, '
                             f'mdtest, OSU, fabtests, elbencho) in it')
        return found
    commands = _elbencho_named(batch.commands(
        name, readable.unwrapped(text), prompt=True,
        reader=reader_for(context)))
    found = bounds.judged(
        commands, lambda command: _judge_command(
            command, context, required=argv or len(commands) == 1),
        'commands')
    if not found:
        first = commands[0].words[0] if commands else text.split()[0]
        raise Unreadable(f'{name}: {excerpt(first)} is not a benchmark the '
                         f'audit knows ({KNOWN})')
    return found


#: The longest path a refusal names whole (Linux's PATH_MAX)
PATH_CHARS = 4096


def _elbencho_named(commands):
    '''The commands, elbencho's arguments without the program (a
    container's, whose image runs elbencho) given its name.'''
    for command in commands:
        if command.words and tool_of(command.words[0]) is None and \
                elbenchofile.is_argument_list(command.words):
            command.words = ['elbencho', *command.words]
    return commands


def _judge_command(command, context, required, striped=False,
                   given=False):
    '''The invocations of one command; ``required``: an unknown program
    is an error, not a line to pass over; ``given``: the command is the
    audit's own arguments (its first word may be a file name
    mistyped).'''
    launch = words.launch(command.words, _known)
    tool = tool_of(launch.program)
    renamed = canonical(launch.program) if tool else None
    if renamed and tool_of(renamed) == tool:
        launch.renamed = renamed
    if tool is None and launch.argv and getopt.UNSET.match(launch.argv[0]) \
            and fiocommand.fio_options_only(launch.argv):
        tool = launch.renamed = 'fio'     # sudo $1 -name=rw -rw=rw ...
        launch.renamed_by = 'its options are fio\'s'
    if tool is None and launch.argv and network.unnamed_osu(launch.argv[0]) \
            is not None:
        tool = 'osu-unnamed'
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
    if tool == 'fio' and fiocommand.prints_only(launch.argv):
        if required:
            raise Unreadable(f'{command.where}: fio prints and exits '
                             f'({excerpt(" ".join(launch.argv))}): no job '
                             f'runs')
        return []                      # `fio --version` in a guide
    found = _judge_tool(tool, launch, command, context, striped)
    _said_unset(found, launch)
    for invocation in found:
        invocation.not_judged.extend(command.not_judged)
    if command.unswept:
        for invocation in found:
            invocation.not_judged.append(
                f'{command.unswept} more configurations of this sweep of '
                f'loop variables: the audit judges the first '
                f'{bounds.MAX_SWEEP}')
    return found


def _known(word):
    '''Whether a word names a program the audit judges.'''
    return tool_of(word) is not None or network.unnamed_osu(word) \
        is not None


def _said_unset(found, launch):
    '''Notes of a program read by another name, and of the words the
    input leaves to variables it does not set.'''
    notes = []
    if launch.renamed:
        notes.append(f'{excerpt(launch.argv[0])} read as {launch.renamed} '
                     f'({launch.renamed_by or "its name"})')
    unset = sorted({word for word in launch.argv[1:]
                    if getopt.UNSET.match(word)})
    if unset:
        notes.append(f'what {", ".join(excerpt(w) for w in unset[:5])} '
                     f'hold: the input does not set them')
    for invocation in found:
        invocation.not_judged.extend(notes)


def _required(command, context):
    '''The invocations of a command that must be a benchmark's.'''
    return _judge_command(command, context, required=True)


def _judge_tool(tool, launch, command, context, striped):
    binding, said = batchjob.binding_of(command.env)
    if binding and launch.binding is None and launch.launcher:
        launch.binding, launch.binding_words = binding, [said]
    context = context.with_(repeats=command.repeats,
                            repeats_where=command.repeats_where,
                            env=ChainMap(command.env, context.env))
    where = command.where
    if tool == 'fio':
        return fioinputs.judge_command(launch, where, context,
                                       reader_for(context))
    if tool == 'ior':
        found = iorscript.follow(launch, command, context,
                                 reader_for(context), _required)
        if found is not None:
            return found
        found = ior.judge_ior(launch, where, context)
        if striped:
            for inv in found:
                inv.findings = [f for f in inv.findings if f.pitfall != 'S5']
        return found
    if tool == 'mdtest':
        return ior.judge_mdtest(launch, where, context)
    if tool == 'osu':
        return network.judge_osu(launch, where, context)
    if tool == 'osu-unnamed':
        return network.judge_osu_unnamed(launch, where, context)
    if tool == 'fabtests':
        return network.judge_fabtests(launch, where, context)
    if tool == 'pingpong':
        return network.judge_pingpong(launch, where, context)
    if tool == 'runfabtests':
        return runfabtests.judge_runner(launch, where, context)
    if tool == 'io500':
        found = io500run.judge_program(launch, command, context, _required)
        if striped:         # the script lays out its directories first
            for inv in found:
                inv.findings = [f for f in inv.findings if f.pitfall != 'S5']
        return found
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
