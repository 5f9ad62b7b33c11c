'''An IOR script (``ior -f script``) read as IOR reads it (hpc/ior
``src/parse_options.c`` @ 5fcf0ba9, ``ReadConfigScript`` and
``DecodeDirective``): nothing before ``IOR START``; then ``name=value``
directives (names without case, several on a line separated by commas,
``#`` comments), each ``RUN`` a test with every directive given so far
(a test keeps the directives of the one before it), up to ``IOR STOP``;
directives after the last ``RUN`` make one more test.

Each test is the IOR command line of its directives, judged by the IOR
rules as under ``mpirun`` on nodes unknown (IOR, an MPI program, runs a
script so).  A directive IOR does not know stops IOR ("Unrecognized
parameter"): refused, named.  One the audit does not judge is said.
'''

import re

from microbench.audit import options
from microbench.audit.batch import Command
from microbench.audit.findings import Unreadable, Where

#: directive (lower case) -> (IOR's option, a flag set by a value not 0)
OPTIONS = {
    'api': ('-a', False), 'testfile': ('-o', False),
    'blocksize': ('-b', False), 'transfersize': ('-t', False),
    'segmentcount': ('-s', False), 'fileperproc': ('-F', True),
    'reordertasksconstant': ('-C', True), 'reordertasks': ('-C', True),
    'taskpernodeoffset': ('-Q', False), 'reordertasksrandom': ('-Z', True),
    'readfile': ('-r', True), 'writefile': ('-w', True),
    'checkread': ('-R', True), 'checkwrite': ('-W', True),
    'keepfile': ('-k', True), 'fsync': ('-e', True),
    'fsyncperwrite': ('-Y', True), 'uniquedir': ('-u', True),
    'repetitions': ('-i', False), 'useo_direct': ('--posix.odirect', True),
    'numtasks': ('-N', False), 'intratestbarriers': ('-g', True),
    'collective': ('-c', True), 'memorypernode': ('-M', False),
    'randomoffset': ('-z', True), 'deadlineforstonewalling': ('-D', False),
    'useexistingtestfile': ('-E', True), 'datapackettype': ('-l', False),
}

#: The other directives of IOR's DecodeDirective (lower case): IOR runs
#: them, the audit does not judge them
OTHERS = frozenset(name.lower() for name in (
    'summaryFile saveRankPerformanceDetailsCSV savePerOpDataCSV '
    'summaryFormat refnum debug platform dualmount allocateBufferOnGPU '
    'GPUid GPUDirect stoneWallingWearOut stoneWallingWearOutIterations '
    'stoneWallingStatusFile maxtimeduration mintimeduration '
    'outlierthreshold numnodes intertestdelay interiodelay multiFile '
    'keepfilewitherror warningAsErrors reordertasksrandomSeed '
    'singlexferattempt verbose settimestampsignature memoryPerTask '
    'summaryalways hintsfilename showhints setalignment storefileoffset '
    'quitonerror nofill preallocate useFileView useSharedFilePointer '
    'useStridedDatatype individualDataSets noFill').split())

_START = re.compile(r'^\s*ior\s+start\s*$', re.IGNORECASE)
_STOP = re.compile(r'^\s*ior\s+stop\s*$', re.IGNORECASE)
_RUN = re.compile(r'^\s*run\s*$', re.IGNORECASE)
_DIRECTIVE = re.compile(r'^\s*([^=#\s]+)\s*=\s*([^#\s]*)\s*$')


def is_script(text):
    '''Whether ``text`` is an IOR script: an ``IOR START`` line.'''
    return any(_START.match(line) for line in text.splitlines())


def _words(settings):
    '''The IOR command line of a test's directives.'''
    out = ['mpirun', 'ior']
    for name, (value, _) in settings.items():
        option, flag = OPTIONS.get(name, (f'--{name}', False))
        if flag:
            if value.strip() not in ('', '0'):
                out.append(option)
        elif option.startswith('--'):
            out.append(f'{option}={value}')
        else:
            out += [option, value]
    return out


def commands(name, text):
    '''The :class:`~.batch.Command` of every test, each saying the
    directives of it the audit does not judge (``not_judged``).'''
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if _START.match(line)),
                 None)
    if start is None:
        raise Unreadable(f'{name}: no "IOR START" line: not an IOR script')
    settings, unjudged, tests, pending = {}, {}, [], False
    for number, line in enumerate(lines[start + 1:], start + 2):
        body = line.split('#', 1)[0].strip()
        if not body:
            continue
        if _STOP.match(body):
            break
        if _RUN.match(body):
            tests.append((number, dict(settings), dict(unjudged)))
            pending = False
            continue
        for part in body.split(','):
            directive = _DIRECTIVE.match(part)
            if directive is None:
                raise Unreadable(f'{name}:{number}: IOR reads no directive '
                                 f'in {part.strip()!r} (it stops: "Syntax '
                                 f'error in configuration options")')
            key, value = directive[1].lower(), directive[2]
            if key in OPTIONS:
                settings[key] = (value, number)
            elif '.' in key and f'--{directive[1]}' in options.getopt_table(
                    'ior'):
                settings[directive[1]] = (value, number)
            elif key in OTHERS or '.' in key:
                unjudged[key] = f'{directive[1]}={value}'
            else:
                raise Unreadable(f'{name}:{number}: IOR knows no directive '
                                 f'{directive[1]!r} (it stops)')
            pending = True
    if pending or not tests:
        tests.append((len(lines), dict(settings), dict(unjudged)))
    out = []
    for number, test, others in tests:
        argv = _words(test)
        where = Where(name, number, f'RUN: {" ".join(argv[1:])}')
        out.append(Command(where, argv, 1, None, {}, not_judged=[
            f'IOR directive {said}: not judged'
            for said in sorted(others.values())]))
    return out


def script_of(argv):
    '''(the script ``ior -f FILE`` names, the options before it) of an
    IOR command line, or None.'''
    for at, word in enumerate(argv[1:], 1):
        if word == '-f' and at + 1 < len(argv):
            return argv[at + 1], argv[1:at]
        if word.startswith('-f') and len(word) > 2 and \
                not word.startswith('--'):
            return word[2:], argv[1:at]
    return None


def follow(launch, command, context, reader, judge):
    '''The invocations of the tests of the script ``ior -f FILE`` runs,
    each under the command's launcher with the options given before
    ``-f`` (IOR's defaults for the script; those after it do not apply to
    its tests), or None where the command names no script or the script
    is not here.'''
    named = script_of(launch.argv)
    if named is None:
        return None
    path, before = named
    try:
        text = reader(path)
    except FileNotFoundError:
        return None
    found = []
    for test in commands(path, text):
        test.words = [*launch.prefix, launch.argv[0], *before,
                      *test.words[2:]]
        test.repeats, test.env = command.repeats, command.env
        found += judge(test, context)
    return found
