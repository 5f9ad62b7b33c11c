'''The pitfall catalogue, declared once, as data.

One entry per pitfall the suite encodes (S1-S7 storage, N1-N3 network and
CPU: the ids of "Keeping It Real", Carns et al., PDSW 2020, and of the work
that followed it), per measurement the suite's figures are held against
(A0, the component limits; the IOR scaling sweep) and per rule the audit
judges that no check measures (M1).  Each says what the pitfall is and how
it distorts a figure, which checks measure it (the ReFrame test classes of
``reframe_tests/``), their knob and its values (the benchmark's default
first), the gap that sizes it, the witnesses that show a variant is what it
claims (by the names of :mod:`microbench.witnesses`), the ids of the audit's
rules that find it in anyone's benchmark, and the documents it comes from.

Everything else is made from it: the pitfall tables of README.md and
docs/index.md, docs/reference/pitfalls.md and catalogue.json, the
catalogue lines of docs/reference/checks.md (docs/generate.py, whose
``--check`` also holds every knob, gap and witness here to the checks'
own), and the titles and reasons of ``microbench audit``'s findings
(:mod:`microbench.audit.findings`).  ``tests/repository/test_catalogue.py``
holds it to the checks and to the audit.  It imports nothing but the table
of witnesses: the audit and the documentation read it as data.
'''

import re
from typing import NamedTuple

from microbench import witnesses


class Check(NamedTuple):
    '''A check that measures a pitfall.'''

    #: its ReFrame test class, and the check file in reframe_tests/ holding it
    name: str
    file: str
    #: ((variable, (its values, the benchmark's default first)), ...) of
    #: the pitfall's knob; a variable with no values is one a sweep doubles,
    #: 1, 2, 4, ..., up to its value
    knob: tuple = ()
    #: the gap of ``<check>_gap`` that says the pitfall's size, or None
    gap: str = None
    #: the witnesses that show its variants are what they claim
    witnesses: tuple = ()


class Pitfall(NamedTuple):
    '''One entry of the catalogue.'''

    #: its catalogue id; the check's name where the catalogue has none
    id: str
    #: storage, network, method (how to measure) or context (not a pitfall:
    #: what the suite's figures are held against)
    kind: str
    name: str
    #: how it distorts the figure, in a sentence or two
    mechanism: str
    checks: tuple
    #: the ids of the audit's rules that find it (microbench/audit)
    audit: tuple
    #: the documents it comes from
    references: tuple


KINDS = ('storage', 'network', 'method', 'context')

KIR = 'Carns et al., "Keeping It Real", PDSW 2020'
LOCKWOOD = 'Lockwood, "Basics of I/O Benchmarking", 2016'
IO500 = "IO500's rules"
SNYDER = 'Snyder, "Understanding and tuning HPC I/O performance", ATPESC 2020'
KUHN = 'Kuhn, "Performance Analysis", 2023'
GWDG = ('Nolte et al., "Understanding Storage Performance using '
        'Benchmarking", GWDG')

#: Every entry, in the order the tables list them
PITFALLS = (
    Pitfall(
        'S1', 'storage', 'cache flags: which cache a write bandwidth measures',
        'Buffered writes (the benchmarks\' default) land in the page cache: '
        'the figure is system calls and memcpy, not storage.  O_DIRECT '
        'bypasses the page cache but not the device\'s write-back cache; '
        'O_SYNC flushes both on every write.',
        (Check('fio_cache_flags', 'fio_cache_flags.py',
               (('mode', ('buffered', 'direct', 'sync', 'both',
                          'dontcache')),),
               'buffered_over_direct', ('cache_after_write', 'darshan')),
         Check('elbencho_storage', 'elbencho_storage.py',
               (('io', ('buffered', 'direct')),),
               'write_buffered_over_direct', ('residency', 'darshan'))),
        ('S1',),
        (f'{KIR}, section II-D, Fig. 6', GWDG,
         "Linux 6.14's RWF_DONTCACHE, fio 3.40's uncached=1")),
    Pitfall(
        'S2', 'storage',
        'file allocation: the file is preallocated before the timed phase',
        'The benchmark reserves the file (fallocate()) before it times the '
        'writes, hiding the block allocation and size updates a service '
        'appending to a growing log pays on every write.',
        (Check('fio_fallocate', 'fio_fallocate.py',
               (('fallocate', ('default', 'none')),),
               'preallocated_over_none', ('strace',)),
         Check('elbencho_storage', 'elbencho_storage.py',
               (('allocation', ('grow', 'prealloc')),),
               'write_prealloc_over_grow', ('darshan',))),
        ('S2',), (f'{KIR}, section II-E, Fig. 7', GWDG)),
    Pitfall(
        'S3', 'storage',
        'time_based overwrite: a small file written again and again',
        'With time_based the benchmark wraps at the end of a small file and '
        'writes it again until the runtime is over: later passes overwrite '
        'blocks already allocated and cached.',
        (Check('fio_time_based_overwrite', 'fio_time_based_overwrite.py',
               (('file', ('large', 'small')),),
               'overwrite_over_baseline', ('overwrite_factor', 'darshan')),),
        ('S3',), (f'{KIR}, section II-E, Fig. 7',)),
    Pitfall(
        'S4', 'storage',
        "read after write (or stat after create) from the client's cache",
        'A task reads back, or stats, what its own node just wrote or '
        'created: the client\'s page cache or metadata cache answers, not '
        'storage, and so does an unflushed write.',
        (Check('ior_page_cache', 'ior_page_cache.py',
               (('shape', ('easy', 'hard')),
                ('defence', ('none', 'fsync', 'reorder', 'reorder_fsync',
                             'odirect', 'memory', 'reread'))),
               'easy_read_none_over_reorder_fsync',
               ('darshan', 'residency', 'one_kernel')),
         Check('mdtest_metadata', 'mdtest_metadata.py',
               (('shape', ('easy', 'hard')), ('stride', ('none', 'node'))),
               'easy_stat_none_over_node', ('darshan', 'one_kernel'))),
        ('S4',), (LOCKWOOD, f'{IO500}: -C -Q 1 -e, mdtest -N', KUHN)),
    Pitfall(
        'S5', 'storage', 'stripe count and alignment on Lustre',
        'A shared file on Lustre\'s default layout (often one stripe) is '
        'served by one storage target, and accesses that start half a '
        'stripe off a boundary each span two.',
        (Check('lustre_striping', 'lustre_striping.py',
               (('layout', ('one_stripe', 'striped', 'misaligned')),),
               'striped_over_one_stripe', ('stripe_count',)),),
        ('S5',), (SNYDER,)),
    Pitfall(
        'S6', 'storage',
        'data reduction: data a compressing or deduplicating store keeps in '
        'a fraction of its size',
        'Zero-filled, compressible or repeated buffers are stored reduced by '
        'a file system that compresses or deduplicates: the bandwidth '
        'counts bytes it never wrote.',
        (Check('fio_data_reduction', 'fio_data_reduction.py',
               (('fill', ('zeros', 'default', 'incompressible')),),
               'zeros_over_incompressible', ('stored_bytes',)),
         Check('elbencho_data_reduction', 'elbencho_data_reduction.py',
               (('blocks', ('same', 'half', 'random')),),
               'write_same_over_random', ('stored_bytes',))),
        ('S6',),
        (f'{IO500}, rule 7: data written in its entirety, not reduced',
         "elbencho 2.2.1's default fill, fully random blocks")),
    Pitfall(
        'S7', 'storage',
        "polled storage completions: a poller's core the benchmark does not "
        'count',
        'io_uring\'s hipri or sqthread_poll spin a core for completions, '
        'which the benchmark\'s own CPU figures do not show: a data service '
        'pays that core.',
        (Check('fio_completion_polling', 'fio_completion_polling.py',
               (('completion', ('interrupt', 'hipri', 'sqpoll')),),
               'sqpoll_over_interrupt', ('busy_cores', 'poller_threads')),),
        ('S7',), (f'{KIR}, section II-B: its network form, N2',)),
    Pitfall(
        'N1', 'network', 'buffer reuse: every message from one hot buffer',
        'osu_bw sends every message from one buffer, registered and cached; '
        'a data service moves data from many addresses.',
        (Check('osu_buffer_reuse', 'osu_buffer_reuse.py',
               (('benchmark', ('osu_bw', 'osu_latency')),
                ('buffer', ('single', 'multiple'))),
               'multiple_over_single', ('cold_start',)),),
        ('N1',), (f'{KIR}, section II-A, Figs. 2-3',)),
    Pitfall(
        'N2', 'network', 'completion method: busy polling for completions',
        'fabtests poll the completion queue in a loop, burning a core for '
        'the lowest latency; a service that waits blocks on a file '
        'descriptor.',
        (Check('fabtests_completion', 'fabtests_completion.py',
               (('completion', ('spin', 'fd', 'sread', 'yield')),),
               'fd_over_spin', ('client_cpu',)),),
        ('N2',), (f'{KIR}, section II-B, Fig. 4',)),
    Pitfall(
        'N3', 'network',
        'CPU binding: a process that needs two cores pinned to one',
        'The provider\'s progress thread and busy polling need two cores '
        'while the launcher binds each process to one.',
        (Check('fabtests_binding', 'fabtests_binding.py',
               (('binding', ('bound', 'unbound')),),
               'unbound_over_bound', ('cpuset', 'client_cpu')),),
        ('N3',), (f'{KIR}, section II-C, Fig. 5',)),
    Pitfall(
        'ior_gpu_buffer', 'storage',
        "GPU buffers: a host-buffer figure standing in for a GPU "
        "application's I/O (GPU partitions only)",
        'IOR\'s buffer is host memory by default; a GPU application writes '
        'from and reads into GPU memory, so a host-buffer figure is its '
        'I/O only if moving the data between GPU and host costs nothing.',
        (Check('ior_gpu_buffer', 'ior_gpu_buffer.py',
               (('buffer', ('host', 'managed', 'device')),),
               'easy_read_host_over_managed', ('darshan', 'residency')),),
        (), ("IOR 4.0.0's -O allocateBufferOnGPU and --gpuDirect",)),
    Pitfall(
        'ior_scaling', 'context', 'scaling: where bandwidth stops growing',
        'How many clients saturate the storage is measured, not guessed: '
        'IOR\'s easy shape under IO500\'s rules from one node and one '
        'process up, to the point after which the median stops growing.',
        (Check('ior_scaling', 'ior_scaling.py',
               (('max_nodes', ()), ('max_tasks_per_node', ())), None,
               ('darshan', 'residency', 'one_kernel')),),
        (), (GWDG,)),
    Pitfall(
        'A0', 'context',
        'component limits: what the hardware under every figure can do',
        'A figure alone does not say whether a machine is healthy: the '
        'partition\'s storage, memory, network and node limits, measured in '
        'the shape that reaches each, make every figure a share of its limit.',
        (Check('component_limits', 'component_limits.py',
               (('component', ('write', 'read', 'randwrite', 'randread',
                               'cached_read', 'tmpfs')),),
               None, ('residency', 'data_to_memory')),
         Check('component_limits_network', 'component_limits.py',
               (('benchmark', ('osu_bw', 'osu_latency')),
                ('buffer', ('multiple',))), None, ('one_kernel',)),
         Check('component_limits_node', 'component_limits.py')),
        (), (KUHN, GWDG)),
    Pitfall(
        'M1', 'method', 'one run, not samples',
        'One measurement says nothing: repeat it (3 times at least, '
        'round-robin with the other configurations) and report median, min '
        'and max, as every check does (samples).',
        (), ('M1',), (KUHN, f'{KIR}: 50 samples')),
)

_AUDIT_ID = re.compile(r'[A-Z]\d+')


def problems(pitfalls=PITFALLS):
    '''What is wrong with a catalogue, one line each (none: it is valid):
    a member missing or of the wrong shape, an id, a check within an entry
    or an audit rule given twice, a witness
    :data:`microbench.witnesses.WITNESSES` lacks.'''
    out, ids, rules = [], set(), set()
    for number, entry in enumerate(pitfalls):
        if not isinstance(entry, Pitfall):
            out.append(f'entry {number}: not a Pitfall: {entry!r}')
            continue
        at = f'{entry.id or number}'
        for member in ('id', 'name', 'mechanism'):
            if not isinstance(getattr(entry, member), str) or \
                    not getattr(entry, member).strip():
                out.append(f'{at}: no {member}')
        if not str(entry.mechanism).rstrip().endswith('.'):
            out.append(f'{at}: its mechanism is no sentence (a full stop)')
        if entry.id in ids:
            out.append(f'{at}: a second entry of that id')
        ids.add(entry.id)
        if entry.kind not in KINDS:
            out.append(f'{at}: kind {entry.kind!r} is none of {KINDS}')
        if not entry.references or not all(
                isinstance(r, str) and r for r in entry.references):
            out.append(f'{at}: no references')
        if not entry.checks and entry.kind != 'method':
            out.append(f'{at}: no check measures it')
        for rule in entry.audit:
            if not _AUDIT_ID.fullmatch(str(rule)):
                out.append(f'{at}: {rule!r} is no audit rule id')
            if rule in rules:
                out.append(f'{at}: audit rule {rule} is another entry\'s')
            rules.add(rule)
        names = [getattr(c, 'name', None) for c in entry.checks]
        for check in entry.checks:
            if not isinstance(check, Check):
                out.append(f'{at}: not a Check: {check!r}')
                continue
            out += [f'{at}: {check.name}: {said}'
                    for said in _check_problems(check)]
            if names.count(check.name) > 1:
                out.append(f'{at}: {check.name} given twice')
    return list(dict.fromkeys(out))


def _check_problems(check):
    out = []
    if not check.name or not check.file.endswith('.py'):
        out.append('no name or no check file')
    for pair in check.knob:
        if not (isinstance(pair, tuple) and len(pair) == 2 and
                isinstance(pair[1], tuple) and
                all(isinstance(v, str) for v in pair[1])):
            out.append(f'knob {pair!r} is not (variable, (values, ...))')
    out += [f'{name!r} is no witness of microbench/witnesses.py'
            for name in witnesses.unknown(check.witnesses)]
    return out


_WRONG = problems()
if _WRONG:
    raise ValueError('microbench/catalogue.py: ' + '; '.join(_WRONG))

#: id -> :class:`Pitfall`
BY_ID = {entry.id: entry for entry in PITFALLS}


def audited(pitfalls=PITFALLS):
    '''``{audit rule id: its entry}``, in the catalogue's order.'''
    return {rule: entry for entry in pitfalls for rule in entry.audit}


def why(entry):
    '''How ``entry`` distorts a figure, and where that comes from: the
    audit's reason of a finding.'''
    return f'{entry.mechanism[:-1]} ({"; ".join(entry.references)}).'


def as_data(pitfalls=PITFALLS):
    '''The catalogue as JSON-ready data (docs/reference/catalogue.json).'''
    return [{**entry._asdict(),
             'checks': [{**check._asdict(),
                         'knob': [{'variable': name, 'values': list(values)}
                                  for name, values in check.knob],
                         'witnesses': list(check.witnesses)}
                        for check in entry.checks],
             'audit': list(entry.audit),
             'references': list(entry.references)}
            for entry in pitfalls]
