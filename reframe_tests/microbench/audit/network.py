'''OSU Micro-Benchmarks and fabtests: the catalogue's rules (N1, N2, N3,
M1) and the realistic rewrite (:mod:`microbench.knobs`: ``-b multiple``,
``-c fd``, the launcher's unbound spelling).

The options are those of the tools' sources: OSU 7.2's
``c/util/osu_util_options.h`` (yqin/osu-micro-benchmarks b7fc8c5) and
5.6.1's, fabtests 1.17.0's ``fabtests/include/shared.h`` and
``benchmarks/benchmark_shared.h`` (ofiwg/libfabric 4a7d3ad).
'''

import re

from microbench import knobs
from microbench.audit import getopt, launchers, words
from microbench.audit.context import repeated, version_tuple
from microbench.audit.findings import (CERTAIN, Finding, Invocation,
                                       depends)

#: OSU's getopt strings (non-GPU builds, 7.2; 5.6.1's pt2pt "+:hvm:x:i:t:W:
#: d:" differs only by ``-d``, which 7.2 keeps for GPU builds)
_OSU_OPTSTRINGS = {
    'bw': '+:hvm:x:i:t:W:b:cu:G:D:P:T:Id:',
    'lat': '+:hvm:x:i:b:cu:G:D:P:T:Id:',
    'lat_mp': '+:hvm:x:i:t:cu:G:D:P:T:Id:',
    'mbw_mr': 'p:W:R:x:i:m:Vhvb:cu:G:D:P:T:Id:',
    'collective': '+:hvfm:i:x:M:a:cu:G:D:P:T:Ilk:t:d:r:',
    'one_sided': '+:w:s:hvm:x:i:W:G:P:Id:',
}

#: OSU's long options (OMBOP_LONG_OPTIONS_ALL) -> their short letter
_OSU_LONG = {
    'help': 'h', 'version': 'v', 'full': 'f', 'message-size': 'm',
    'window-size': 'W', 'num-test-calls': 't', 'iterations': 'i',
    'warmup': 'x', 'array-size': 'a', 'sync-option': 's',
    'win-options': 'w', 'mem-limit': 'M', 'accelerator': 'd',
    'cuda-target': 'r', 'print-rate': 'R', 'num-pairs': 'p',
    'vary-window': 'V', 'validation': 'c', 'buffer-num': 'b',
    'validation-warmup': 'u', 'graph': 'G', 'papi': 'P', 'ddt': 'D',
    'nhbr': 'N', 'type': 'T', 'session': 'I', 'in-place': 'l',
    'root-rank': 'k',
}

#: Point-to-point benchmarks with ``-b`` (OSU 5.7.1 and later)
BUFFERED = {'osu_bw': 'bw', 'osu_bibw': 'bw', 'osu_latency': 'lat',
            'osu_mbw_mr': 'mbw_mr'}
OTHER_PT2PT = {'osu_multi_lat': 'lat_mp', 'osu_latency_mt': 'lat_mp',
               'osu_latency_mp': 'lat_mp', 'osu_get_bw': 'one_sided',
               'osu_put_bw': 'one_sided', 'osu_get_latency': 'one_sided',
               'osu_put_latency': 'one_sided', 'osu_put_bibw': 'one_sided',
               'osu_acc_latency': 'one_sided', 'osu_cas_latency': 'one_sided',
               'osu_fop_latency': 'one_sided', 'osu_get_acc_latency':
               'one_sided'}

#: fabtests' benchmark options: "h" CS_OPTS INFO_OPTS API_OPTS
#: BENCHMARK_OPTS, and the long ones of common/shared.c
_FABTESTS_OPTSTRING = ('hB:P:s:a:b::E::C:F:I:QS:mc:t:w:l'
                       'f:d:p:KD:i:He:M:o:vkj:W:')
_FABTESTS_LONG = {'--pin-core': True, '--timeout': True,
                  '--debug-assert': False}

#: fabtests' benchmark programs
FABTESTS_BENCHMARKS = {'fi_msg_pingpong', 'fi_msg_bw', 'fi_rdm_pingpong',
                       'fi_rdm_tagged_pingpong', 'fi_rdm_tagged_bw',
                       'fi_rma_bw', 'fi_dgram_pingpong',
                       'fi_rdm_cntr_pingpong'}

#: The ways of waiting that do not busy-poll
WAITING = {name for name, words_ in knobs.FABTESTS_COMPLETION.items()
           if words_}


def optstring_table(optstring, long_options):
    '''{option: (takes a value, ())} of a getopt string.'''
    table = {}
    letters = optstring.lstrip('+:')
    for index, letter in enumerate(letters):
        if letter == ':':
            continue
        takes = index + 1 < len(letters) and letters[index + 1] == ':'
        table[f'-{letter}'] = (takes, ())
    for name, takes in long_options.items():
        table[name] = (takes, ())
    return table


def osu_table(program):
    kind = BUFFERED.get(program) or OTHER_PT2PT.get(program) or 'collective'
    table = optstring_table(_OSU_OPTSTRINGS[kind], {})
    for name, letter in _OSU_LONG.items():
        if f'-{letter}' in table:
            table[f'--{name}'] = table[f'-{letter}']
    return table


def _benchmark(program):
    '''The OSU benchmark a program's name is, with a build's own suffix
    taken off (``osu_bw-tioga``, ``osu_latency.cuda``: a machine's or a
    build's name after the benchmark's).'''
    if program in BUFFERED or program in OTHER_PT2PT:
        return program
    base = re.split(r'[-.]', program, maxsplit=1)[0]
    return base if base in BUFFERED or base in OTHER_PT2PT else program


def judge_osu(launch, where, context):
    program = _benchmark(launch.program)
    given, _ = getopt.parse(launch.argv, osu_table(program), program, where,
                            positional=True)
    found = Invocation('OSU', where)
    if program in BUFFERED:
        _buffers(found, launch, given, context)
    elif program in OTHER_PT2PT:
        _one_buffer(found, launch)
    else:
        found.not_judged.append(f'{program}: N1 concerns the point-to-point '
                                f'and one-sided benchmarks (a collective '
                                f'has no buffer option to judge)')
    _osu_samples(found, context, where)
    _realistic(found, launch, given)
    return [found]


#: An OSU program named by a variable, in OSU's tree: its family's
#: directory says what it may be (``.../mpi/pt2pt/$BENCH``)
_UNNAMED = re.compile(r'osu[-_]micro[-_]benchmarks[^/]*/(?:.*?/)??'
                      r'(?:(pt2pt|one-sided|collective|startup)/)?'
                      r'(\$\{?\w+\}?|<\w+>)$', re.IGNORECASE)


def unnamed_osu(word):
    '''The family of an OSU program a variable names in OSU's tree
    ('pt2pt', 'one-sided', 'collective', 'startup', '' where its directory
    does not say), or None.'''
    match = _UNNAMED.search(word)
    return None if match is None else (match[1] or '').lower()


def judge_osu_unnamed(launch, where, context):
    '''An OSU benchmark the input names by a variable it does not set:
    N1 depends on which it is where its family has benchmarks that reuse
    one buffer; M1 as for any run.'''
    family = unnamed_osu(launch.argv[0])
    found = Invocation('OSU', where)
    program = launch.argv[0].rsplit('/', 1)[-1]
    if family in ('pt2pt', 'one-sided') and 'multiple' not in launch.argv:
        found.findings.append(Finding(
            'N1', f'an OSU {family} benchmark named by {program}: those '
            f'send from one buffer (osu_bw, osu_latency without -b '
            f'multiple; every one-sided benchmark)', where,
            depends(f'which benchmark {program} names')))
    else:
        found.not_judged.append(
            f'N1: which OSU benchmark {program} names (its directory says '
            f'{family or "no family"})')
    _osu_samples(found, context, where)
    return [found]


def _version(launch, context):
    version = context.osu_version
    source = context.osu_version_from
    match = re.search(r'osu[-_]micro[-_]benchmarks[-/@_]v?'
                      r'(\d+\.\d+(?:\.\d+)?)', launch.argv[0], re.I)
    if match:
        version, source = match[1], f'the path {launch.argv[0]}'
    return version, source


def _buffers(found, launch, given, context):
    option = getopt.last(given, '-b', '--buffer-num')
    if option is not None and option.value == 'multiple':
        return
    version, source = _version(launch, context)
    since = version_tuple(knobs.OSU_MULTIPLE_SINCE)
    fix = (('-b', '--buffer-num'), knobs.OSU_BUFFERS['multiple'])
    note = None
    if option is not None:
        certainty = CERTAIN      # -b exists, so the release has it
    elif version is None:
        certainty = depends(f'the OSU version (unknown): -b multiple needs '
                            f'{knobs.OSU_MULTIPLE_SINCE} or later')
    elif version_tuple(version) >= since:
        certainty = CERTAIN
    else:
        certainty = CERTAIN
        note = (f'OSU {version} (from {source}) has no -b: the realistic '
                f'form needs OSU {knobs.OSU_MULTIPLE_SINCE} or later')
    said = (f'-b {option.value}' if option is not None else
            'no -b multiple (OSU\'s default: one buffer)')
    evidence = f'{launch.program} with {said}' + (
        f'; OSU {version} from {source}' if version else '')
    finding = Finding('N1', evidence, found.where, certainty, note=note,
                      measure={'check': 'osu_buffer_reuse',
                               'gap': 'multiple_over_single'})
    finding.fix = fix
    found.findings.append(finding)


def _osu_samples(found, context, where):
    '''M1 of an OSU run: one average per message size.'''
    said = repeated(context, found)
    if said:
        found.findings.append(Finding(
            'M1', f'{said[0]}: OSU prints one average per message size '
            f'(its -i iterations are not samples)', where, said[1]))


def _one_buffer(found, launch):
    '''N1 of a point-to-point or one-sided benchmark that no OSU release
    gives a way to rotate buffers (its getopt string has no ``-b``):
    every figure is one hot buffer's.'''
    found.findings.append(Finding(
        'N1', f'{launch.program} sends from and receives into one buffer: '
        f'no OSU release has an option to rotate them for it (its options: '
        f'{_OSU_OPTSTRINGS[OTHER_PT2PT[launch.program]]})', found.where,
        note=f'no realistic form of {launch.program}: osu_bw, osu_bibw, '
             f'osu_latency and osu_mbw_mr take -b multiple (OSU '
             f'{knobs.OSU_MULTIPLE_SINCE} and later)'))


def _realistic(found, launch, given):
    for finding in found.findings:
        fix = finding.fix
        if fix and finding.realistic is None and not finding.note:
            finding.realistic = launch.text(
                getopt.rewrite(launch.argv, given, fix[0], fix[1]))
    fixes = [f.fix for f in found.findings]
    drop = {name for fix in fixes if fix for name in fix[0]}
    add = [word for fix in fixes if fix for word in fix[1]]
    if found.findings:
        argv = getopt.rewrite(launch.argv, given, drop, add)
        found.realistic = (found.binding_fix(argv) if found.binding_fix
                           else launch.text(argv))
        if any(f.pitfall == 'M1' for f in found.findings):
            found.realistic = (f'for run in $(seq 3); do '
                               f'{found.realistic}; done')


#: What some benchmarks add to the common options (their getopt strings)
_FABTESTS_EXTRA = {'fi_rma_bw': 'U', 'fi_rdm_tagged_bw': 'U',
                   'fi_rdm_pingpong': 'U', 'fi_rdm_tagged_pingpong': 'U',
                   'fi_dgram_pingpong': 'T:'}


def fabtests_table(program=''):
    return optstring_table(_FABTESTS_EXTRA.get(program, '')
                           + _FABTESTS_OPTSTRING, _FABTESTS_LONG)


def judge_fabtests(launch, where, context):
    program = launch.program
    given, rest = getopt.parse(launch.argv, fabtests_table(program), program,
                               where,
                               positional=True)
    found = Invocation('fabtests', where)
    if program not in FABTESTS_BENCHMARKS:
        found.not_judged.append(f'{program}: not one of fabtests\' '
                                f'benchmarks (N2, N3 not judged)')
        return [found]
    completion = getopt.last(given, '-c')
    method = (completion.value or '').lower() if completion else 'spin'
    waits = next((name for name in WAITING
                  if method.startswith(name)), None)
    if waits is None:
        said = (f'-c {completion.value} (not fd, sread or yield: fabtests '
                f'keeps its default)' if completion else
                'no -c (fabtests\' default: busy polling)')
        finding = Finding('N2', f'{program} with {said}: it spins on the '
                          f'completion queue, a core at 100 %', where,
                          CERTAIN, measure={'check': 'fabtests_completion',
                                            'gap': 'fd_over_spin'})
        finding.fix = (('-c',), knobs.FABTESTS_COMPLETION['fd'])
        found.findings.append(finding)
    binding(found, launch, given, program)
    samples(found, context, where, 'fabtests')
    _realistic(found, launch, given)
    return [found]


#: libfabric's own fi_pingpong (util/pingpong.c @ af8ddbe9): its getopt
#: string; its completion queue is opened with FI_WAIT_NONE and read with
#: fi_cq_read in a loop, whatever it is asked (its -c checks the data)
PINGPONG_OPTSTRING = 'hvd:p:f:e:I:S:s:B:P:cm:6'


def judge_pingpong(launch, where, context):
    '''fi_pingpong: N2 always (it has no way to wait), N3 where its
    launcher pins it, M1 where the input is a whole run.'''
    program = launch.program
    given, _ = getopt.parse(launch.argv, optstring_table(
        PINGPONG_OPTSTRING, {}), program, where, positional=True)
    found = Invocation('fi_pingpong', where)
    found.findings.append(Finding(
        'N2', f'{program}: libfabric\'s ping-pong opens its completion '
        f'queue without a wait object and spins on fi_cq_read, a core at '
        f'100 % (it has no option to wait; its -c checks the data)', where,
        CERTAIN, note=('a figure without polling: fabtests\' '
                       'fi_msg_pingpong -c fd (microbench\'s '
                       'fabtests_completion)')))
    binding(found, launch, given, program)
    samples(found, context, where, 'fi_pingpong')
    return [found]


def samples(found, context, where, tool, figure=None):
    '''M1 where the input runs it once (``figure``: what it prints, by
    default one row per size).'''
    said = repeated(context, found)
    if said:
        found.findings.append(Finding(
            'M1', f'{said[0]}: {figure or f"{tool} prints one row per size"}',
            where, said[1]))


def binding(found, launch, given, program):
    pinned = getopt.last(given, '--pin-core')
    unbound = knobs.BINDING.get(launch.flavour, ([], ['--bind-to', 'none']))
    if pinned is not None:
        evidence = f'--pin-core {pinned.value}: fabtests pins itself'
        certainty = CERTAIN
    elif launch.binding == 'bound':
        evidence = (f'{" ".join(launch.binding_words)}: the launcher binds '
                    f'{program} to one core')
        certainty = CERTAIN
    elif launch.binding == 'unbound':
        return
    else:
        binds, why = launchers.DEFAULT_BINDING.get(launch.flavour,
                                               (None, 'unknown launcher'))
        if binds is False:
            return
        evidence = f'{launch.launcher}: no binding option ({why})'
        certainty = CERTAIN if binds else depends(
            f'the launcher\'s default binding here: {why}')
    finding = Finding('N3', f'{evidence}; the provider\'s progress thread '
                      f'and the polling need two cores', found.where,
                      certainty, measure={'check': 'fabtests_binding',
                                          'gap': 'unbound_over_bound'})
    finding.fix = (('--pin-core',), ())

    def unbind(argv):
        prefix = [w for w in launch.prefix if w not in launch.binding_words]
        if launch.flavour == 'local':
            prefix = _without_taskset(prefix)
        elif launch.launcher:
            at = prefix.index(launch.launcher) + 1 \
                if launch.launcher in prefix else len(prefix)
            prefix[at:at] = unbound[1] if launch.flavour in knobs.BINDING \
                else ['--bind-to', 'none']
        return words.Launch(prefix, argv).text()

    found.binding_fix = unbind
    finding.realistic = unbind(getopt.rewrite(launch.argv, given,
                                              ('--pin-core',), ()))
    if launch.flavour == 'mpirun':
        finding.note = ('Open MPI\'s spelling; MPICH\'s Hydra: -bind-to none')
    found.findings.append(finding)


def _without_taskset(prefix):
    out, skip = [], 0
    for index, word in enumerate(prefix):
        if skip:
            skip -= 1
            continue
        if words.program_name(word) in ('taskset', 'numactl'):
            rest = prefix[index + 1:]
            skip = len(rest)
            continue
        out.append(word)
    return out
