'''An IO500 run judged phase by phase: a configuration file
(:mod:`.io500`), or a script that runs the ``io500`` program, its
configuration written by the script itself (a here-document) or not in
it (IO500's defaults, said).

Each phase's IOR or mdtest command is judged by the IOR and mdtest rules
under the launcher the script gives (``mpirun`` on nodes unknown for a
configuration alone).  ``drop-caches = TRUE`` purges the caches before
each phase: no read or stat is served by a cache (S4 dropped, said).
ior-hard's one shared file is judged by the IOR rules (S5 depends on the
data directory's file system where its path does not say it).
'''

from microbench.audit import io500, io500app, words
from microbench.audit.findings import Where

#: The IO500 program (IO500/io500's C driver, ISC20 on)
PROGRAM = 'io500'
#: IO500's own driver script (IO500/io500's ``io500.sh``): it runs
#: ``$io500_mpirun $io500_mpiargs $PWD/io500 $1`` (``mpiexec -np 2`` as
#: shipped; a site sets its own)
DRIVER = 'io500.sh'


def judge_config(name, text, context, judge_command, prefix=None,
                 where=None, note=None):
    '''The invocations of an IO500 configuration's phases, each judged
    by ``judge_command(command, context)``; ``prefix``: the launcher words
    in place of ``mpirun``; ``where``: the script line that runs it;
    ``note``: said of every phase.'''
    phases, dropped = io500.commands(name, text)
    return judge_phases(phases, dropped, context, judge_command, prefix,
                        where, note)


def judge_phases(phases, dropped, context, judge_command, prefix=None,
                 where=None, note=None):
    '''The invocations of an IO500 run's phases ((phase, command), and
    whether caches are dropped before each), as :func:`judge_config`.'''
    found = []
    direct = _written_direct(phases)
    for phase, command in phases:
        if prefix is not None:
            command.words = [*prefix, *command.words[1:]]
        if where is not None:
            command.where = Where(where.file, where.line,
                                  f'[{phase}] {" ".join(command.words)}')
        for invocation in judge_command(command, context):
            if dropped:
                invocation.findings = [finding for finding in
                                       invocation.findings
                                       if finding.pitfall != 'S4']
                invocation.not_judged.append(
                    'S4: drop-caches = TRUE: the caches are purged before '
                    'each phase')
            elif phase in direct:
                invocation.findings = [finding for finding in
                                       invocation.findings
                                       if finding.pitfall != 'S4']
                invocation.not_judged.append(
                    f'S4: {direct[phase]} wrote with O_DIRECT: none of its '
                    f'data is in a page cache to read back')
            if note:
                invocation.not_judged.append(note)
            found.append(invocation)
    return found


def _written_direct(phases):
    '''{IOR read phase: the write phase before it} where that write
    phase's API opens its files O_DIRECT (``[ior-hard-write] API = POSIX
    --posix.odirect``): an O_DIRECT write leaves nothing in the page
    cache, so the read after it reads storage, buffered or not.'''
    words = {phase: command.words for phase, command in phases}
    out = {}
    for phase in words:
        if not (phase.startswith('ior-') and phase.endswith('-read')):
            continue
        writer = ('ior-easy-write' if phase == 'ior-rnd4k-easy-read' else
                  phase[:-len('read')] + 'write')
        if '--posix.odirect' in words.get(writer, ()):
            out[phase] = writer
    return out


def judge_program(launch, command, context, judge_command):
    '''The invocations of a script's line that runs the ``io500``
    program: its configuration is the file the script writes in a
    here-document where it does (``cat > config.ini << EOF``), else
    IO500's defaults, said.'''
    if io500app.is_app(launch.argv):
        return judge_phases(
            io500app.phases(launch.argv, command.where), False, context,
            judge_command, prefix=launch.prefix or ['mpirun'],
            where=command.where, note='the IO500 of 2017 (VI4IO\'s '
            'io500-app): its phases as its options build them')
    given = [word for word in launch.argv[1:] if not word.startswith('-')]
    config = given[0] if given else None
    files = getattr(command, 'files', None) or {}
    text = None
    if config is not None:
        text = files.get(config) or files.get(words.program_name(config))
    notes = []
    if text is None:
        text = '[global]\n'
        notes.append(f'the configuration {config or "(none given)"} is not '
                     f'in the input: its phases judged with IO500\'s '
                     f'defaults')
    prefix = launch.prefix or ['mpirun']
    if words.program_name(launch.argv[0]) == DRIVER:
        prefix = [*launch.prefix, '$io500_mpirun', '$io500_mpiargs']
        notes.append(f'{DRIVER}, IO500\'s driver, runs io500 under its own '
                     f'$io500_mpirun $io500_mpiargs (mpiexec -np 2 as '
                     f'shipped): nodes and tasks as the site set them')
    return judge_config(command.where.file, text, context, judge_command,
                        prefix=prefix, where=command.where,
                        note='; '.join(notes) or None)

