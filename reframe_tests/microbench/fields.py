'''What every perflog record of the suite carries: the one list of fields.

Each field is a loggable variable of every test of the suite
(:class:`microbench.suite.recorded.Recorded`) and a column of the perflog
(systems/config.py, :func:`perflog_columns`).  The rounds job measures the
*shared* fields once; its variant checks take them from it, and a gap check
from its variants.  This module imports nothing of ReFrame: the
configuration reads it.

**One codec per field** (:class:`Field`'s ``codec``).  A plain field is
its text (:data:`PLAIN`).  Ten fields pack one value per figure (or
per machine setting), ``<figure>=<value>`` pairs joined by ``;``
(:class:`Pairs`, :mod:`microbench.codecs`): each has one
codec that writes it (``encode``) and reads it (``decode``, ``read``), so
no writer or reader spells the separators.  ``cold_start`` and
``too_spread`` were written ``<figure>: <value>`` before: their codecs
still read that spelling (recorded perflogs and bundles), and write the
new one.
'''

from microbench import settings
from microbench.codecs import (  # noqa: F401  (the codecs, named here too)
    ITEM, OLD_PAIR, PAIR, PLAIN, Numbers, Pairs, Plain, Text)


#: The codecs of the packed fields
FIGURE_SAMPLES = Pairs('figure_samples', Numbers('.6g'))
LIMIT_NAME = Pairs('limit_name', Text())
LIMIT_VALUE = Pairs('limit_value', Numbers('.6g', many=False))
SHARE_OF_LIMIT = Pairs('share_of_limit', Numbers('.4g', many=False))
RESIDENT_SHARE = Pairs('resident_share', Numbers('.1f'))
COLD_START = Pairs('cold_start', Text(), old=True)
DATA_TO_MEMORY = Pairs('data_to_memory', Text())
TOO_SPREAD = Pairs('too_spread', Text(), old=True)
MACHINE_SETTINGS = settings.CODEC
COUNTED = Pairs('counted', Numbers('.4g'))
NODE_FIGURES = Pairs('node_figures', Numbers('.6g'))

#: Where a ``limit_name`` value says the source of its limit: ``<limit>
#: (<source>)``
SOURCE_OPEN, SOURCE_CLOSE = ' (', ')'


def limit_label(limit, source):
    '''The ``limit_name`` value of ``limit`` from ``source``
    (``storage_write_mib_s (measured)``).'''
    return f'{limit}{SOURCE_OPEN}{source}{SOURCE_CLOSE}'


def limit_of(label):
    '''The limit a ``limit_name`` value names, its source left out.'''
    return str(label or '').split(SOURCE_OPEN)[0]


class Field(tuple):
    '''One field: ``(type, default, shared, what it holds)``, and its
    ``codec``.'''

    def __new__(cls, kind, default, shared, doc, codec=PLAIN):
        self = super().__new__(cls, (kind, default, shared, doc))
        self.codec = codec
        return self


#: name -> (type, default, shared, what it holds), in perflog order; each
#: a :class:`Field`, its ``codec`` :data:`PLAIN` or a :class:`Pairs`
FIELDS = {
    'variant': Field(
        str, '', False, "the value of the pitfall's knob (``gap`` for a gap "
        'check)'),
    'measures': Field(
        str, '', False, 'what the figure measures: ``storage``, ``page '
        'cache``, ``client cache``, ``gap``'),
    'samples': Field(
        int, 3, True, 'samples of every variant (the paper took 50); every '
        'figure is their median, min and max'),
    'sample_values': Field(
        str, '', False, "the samples of the variant's main figure, "
        'comma-separated, in round order'),
    'tool': Field(
        str, '', True, 'the benchmark'),
    'tool_version': Field(
        str, '', True, 'its version, as it reports it'),
    'node': Field(
        str, '', True, 'the nodes of the job that measured it, '
        'comma-separated'),
    'scratch': Field(
        str, '', True, 'the scratch directory'),
    'scratch_fstype': Field(
        str, '', True, 'its file system type'),
    'scratch_mount_options': Field(
        str, '', True, 'its mount options (or ``unknown: <why>``)'),
    'command_line': Field(
        str, '', False, 'the exact command line of every sample'),
    'witness': Field(
        str, '', False, 'what the witness saw (empty where the check has '
        'none)'),
    'note': Field(
        str, '', False, 'why the figure may not mean what it usually means '
        '(empty if none)'),
    'spack_env': Field(
        str, '', True, 'the Spack environment (``system`` without one)'),
    'spack_spec': Field(
        str, '', True, 'the concrete spec of every benchmark package it '
        'launched, from the lock'),
    # Appended: a perflog's earlier columns keep their places
    'darshan_witness': Field(
        str, '', False, "what Darshan saw on the variant's witness sample "
        '(or why it did not run)'),
    'darshan_logs': Field(
        str, '', False, 'the Darshan logs of that sample'),
    'job_id': Field(
        str, '', True, "the workload manager's id of the job that measured "
        'it (empty on the local scheduler)'),
    'kernel': Field(
        str, '', True, 'the kernel release of the node that ran the job '
        '(``uname -r``)'),
    'figure_samples': Field(
        str, '', False, 'the samples of every figure with samples, '
        "``<figure>=v1,v2,...`` joined by ``;``: a variant's medians, a "
        "gap's ratios per round",
        FIGURE_SAMPLES),
    'suite_commit': Field(
        str, '', False, "the suite's git commit that ran it (``-dirty``: a "
        'tracked file differed from it)'),
    'limit_name': Field(
        str, '', False, 'the limit of every median figure that has one, '
        '``<figure>=<limit>`` joined by ``;`` (microbench/components.py)',
        LIMIT_NAME),
    'limit_value': Field(
        str, '', False, "its value, ``<figure>=<value>`` in the figure's unit",
        LIMIT_VALUE),
    'share_of_limit': Field(
        str, '', False, "the figure's share of it, ``<figure>=<percent>``",
        SHARE_OF_LIMIT),
    'resident_share': Field(
        str, '', False, 'the largest share of what a read figure reads that '
        "a reading node's page cache held before it (fincore), "
        '``<figure>=<percent>`` joined by ``;``; per sample, '
        'comma-separated, where it is seen before every sample',
        RESIDENT_SHARE),
    'warmup_rounds': Field(
        int, 0, True, 'rounds of every variant run before the counted '
        'samples, round-robin like them, their outputs never read (``-S '
        'warmup_rounds=1``)'),
    'cold_start': Field(
        str, '', False, 'every figure whose round 1 lies outside the other '
        'rounds (microbench/suite/coldstart.py), ``<figure>=round 1 x2.4 '
        'slower`` joined by ``;`` (empty if none; older records say '
        '``<figure>: round 1 ...``)',
        COLD_START),
    'data_to_memory': Field(
        str, '', False, 'the data every storage figure touched on a node '
        "over the node's memory (and over the partition's declared client "
        'cache), ``<figure>=<r>x memory[, <r>x client cache]`` joined by '
        '``;`` (microbench/suite/memory.py)',
        DATA_TO_MEMORY),
    'too_spread': Field(
        str, '', False, 'every gap of a gap check whose pitfall did not show '
        'and whose rounds are too spread to tell '
        '(microbench/suite/stats.py), ``<gap>=gap 1, rounds 0.45 to 2.2`` '
        'joined by ``;`` (empty if none; older records say ``<gap>: gap '
        '...``)',
        TOO_SPREAD),
    'stack': Field(
        str, '', False, 'the side of an A/B experiment (``microbench ab``: '
        '``-P stack=A,B`` makes one test of each side) and the identity of '
        'its software stack, ``A: <name>; prefix <dir>; fio <dir> '
        '(<version>); lock <sha256>`` (microbench/sides.py); empty outside '
        'an A/B'),
    'tool_path': Field(
        str, '', True, "the tool's program as the job found it (``command "
        '-v``) and where its links lead, ``<path> -> <real path>``: the '
        "software stack that ran (a Spack view's ``bin/`` names its "
        'environment: ``microbench diagnose``)'),
    'spack_lock': Field(
        str, '', True, 'the sha256 of the ``spack.lock`` of the Spack '
        "environment that program came from (its view's, else the "
        "partition's ``spack_env``); empty without one"),
    'machine_settings': Field(
        str, '', True, "the machine's settings below the kernel release on "
        'every node of the job (microbench/settings.py): the scratch '
        "device's queue (``block.<disk>.scheduler``, ``read_ahead_kb``, "
        '``nr_requests``, ``max_sectors_kb``, ``wbt_lat_usec``, '
        '``rotational``), model, firmware and driver, ``vm.dirty_*``, '
        '``mm.thp.*``, ``cpu.governor``, ``cpu.microcode``, '
        '``kernel.cmdline``, every NIC\'s driver, firmware and MTU, the GPU '
        "driver, a Lustre client's tunables; ``<key>=<value>`` joined by "
        '``;`` (``<key>@<node>=<value>`` where nodes differ; ``missing`` or '
        '``unreadable`` where sysfs has no value)',
        MACHINE_SETTINGS),
    'counted': Field(
        str, '', False, "what the scratch disk did for the bytes each sample "
        'moved (microbench/suite/counted.py), one value per sample, '
        '``<figure>=v1,v2,...`` joined by ``;``: '
        '``device_read_per_byte``, ``device_write_per_byte``, '
        '``device_ios_per_mib``, ``device_merges_per_mib``; judged by '
        'their own rule (microbench/verdicts/behaviour.py), never by a '
        'reference band',
        COUNTED),
    'node_figures': Field(
        str, '', False, 'a multi-node run read per node, where the tool '
        "reports per rank or per service (IOR's per-rank CSV, elbencho's "
        "per-service completion time): each sample's value on each node, "
        '``<figure>@<node>=v1,v2,...`` joined by ``;`` (a node\'s ranks '
        'by their median); judged node against node by the same-night '
        'rule (microbench/nodes/multinode.py)',
        NODE_FIGURES),
}

#: What ran: the fields that tell two runs of a figure apart (not the
#: scratch directory: every job makes a private one)
CONTEXT = ('tool_version', 'spack_env', 'spack_spec', 'node', 'kernel',
           'scratch_fstype', 'scratch_mount_options', 'suite_commit',
           'tool_path', 'spack_lock', 'machine_settings')

#: What ran, by what a change of it says: the software (the suite, the
#: benchmark, its build) or the machine (kernel, file system, nodes, the
#: machine's settings: a difference of one is named ``setting <key>``)
SOFTWARE = ('tool_version', 'spack_env', 'spack_spec', 'suite_commit',
            'tool_path', 'spack_lock')
MACHINE = ('kernel', 'scratch_fstype', 'scratch_mount_options', 'node',
           'machine_settings')


def is_machine(name):
    '''Whether a difference named ``name`` (:func:`differences`) is of the
    machine.'''
    return name in MACHINE or name.startswith(settings.PREFIX)


def is_software(name):
    '''Whether a difference named ``name`` is of the software.'''
    return name in SOFTWARE

#: The fields a variant check takes from its rounds job, and a gap check
#: from its variants
SHARED = tuple(name for name, (*_, shared, _) in FIELDS.items() if shared)

#: ReFrame's own perflog columns: when, which test where, the figure, its
#: reference and result
_REFRAME_HEAD = ['check_job_completion_time', 'check_name']
_REFRAME_TAIL = ['check_system', 'check_partition', 'check_environ',
                 'check_perf_var', 'check_perf_value', 'check_perf_unit',
                 'check_perf_ref', 'check_perf_lower_thres',
                 'check_perf_upper_thres', 'check_perf_result']


def perflog_columns():
    '''The columns of a perflog row, as the perflog handler's format names
    them (ReFrame's log record attributes, ``check_<name>``): ReFrame's,
    with the variant after the test's name, then every other field.'''
    return [*_REFRAME_HEAD, 'check_variant', *_REFRAME_TAIL,
            *(f'check_{name}' for name in FIELDS if name != 'variant')]


def perflog_header():
    '''The columns of a perflog row as its header line names them, what
    a reader of the file sees (``pandas.read_csv(path, sep='|')``):
    ReFrame's handler writes each attribute of the format without its
    ``check_`` (ReFrame 4.10's ``MultiFileHandler``;
    ``tests/repository/test_docs_fields.py`` holds it to real perflogs).'''
    return [column.removeprefix('check_') for column in perflog_columns()]


def differences(before, after):
    '''``{field: (values before, values after)}`` of what ran
    (:data:`CONTEXT`) where two sides' records differ; each side maps a
    field to the values of its records (a data frame's columns), each set
    of values sorted, empty values left out.  The machine's settings
    differ key by key: ``setting <key>`` for each key that changed
    (:func:`microbench.settings.differences`), none where a side has no
    settings recorded (older records).'''
    out = {}
    for name in CONTEXT:
        if name == 'machine_settings':
            if name in before and name in after:
                out.update(settings.differences(before[name], after[name]))
            continue
        lhs = sorted(set(before[name]) - {''})
        rhs = sorted(set(after[name]) - {''})
        if lhs != rhs:
            out[name] = (lhs, rhs)

    return out
