'''Base classes of every check of the suite.

A pitfall is measured by three kinds of tests:

- :class:`Rounds`, a fixture: one job runs every variant of the pitfall on
  the same node, round-robin (sample 1 of each variant, then sample 2, ...),
  so that drift of the machine during the job hits every variant alike (the
  paper's method);
- :class:`VariantCheck`, the check a user selects, parameterised by the
  pitfall's knob: the figures of one variant, read from the rounds job;
- :class:`GapCheck`: the gaps between the variants, from the variant checks
  of the same session, partition and environment.

The job script of a rounds fixture reads top to bottom as::

    take the node's benchmark lock       (never two benchmarks side by side)
    record the node; skip if a tool is missing; record its version
    make a private scratch directory     (removed on exit, pass or fail)
    record its file system and mount options
    run each variant's witness on its own short sample, if there is one
    record the exact command of every variant
    run_sample(): one sample of $variant (a case per variant)
    for sample in 1..samples, for variant in the variants:
        run_sample; record a failure (the variant is then dropped from
        later rounds) or keep its output; empty the scratch directory
'''

import glob
import inspect
import os

import reframe as rfm
import reframe.utility.sanity as sn
import reframe.utility.udeps as udeps
from reframe.core.builtins import (run_after, run_before, sanity_function,
                                   variable)
from reframe.core.backends import getlauncher
from reframe.core.exceptions import SanityError

from microbench import ceilings, records, spack
from microbench.stats import Samples

#: Shell variable holding the private scratch directory of a job
SCRATCH = '$scratch'

#: Marks, on a job's stderr, which variant's run the lines below belong to
STDERR_MARK = 'microbench: stderr of '

#: Where the network checks run: partitions with a fabric to test (the
#: ``network`` feature) and ReFrame's builtin generic system
NETWORK = ['+network', 'generic']

#: Where the multi-node storage checks run: partitions whose scratch every
#: node shares (the ``pfs`` feature), the local default and ReFrame's generic
SHARED_SCRATCH = ['+pfs', 'local', 'generic']

#: The statistics of every main figure
STATISTICS = ('median', 'min', 'max')

_UNIT_SUFFIX = {'MiB/s': 'mib_s', 'GiB/s': 'gib_s', 'us': 'us', 'x': 'x',
                '%': 'percent', 'ops/s': 'ops_s'}


def _as_list(specs):
    return specs if isinstance(specs, list) else [specs]


def figure_name(name, stat, unit):
    '''``write``, ``median``, ``MiB/s`` -> ``write_median_mib_s``'''
    return f'{name}_{stat}_{_UNIT_SUFFIX[unit]}'


class Recorded(rfm.RegressionTestPlugin):
    '''What every perflog record of the suite carries.'''

    #: Number of samples of every variant (the paper took 50).
    #:
    #: :type: :class:`int`
    #: :default: ``3``
    samples = variable(int, value=3)

    #: The value of the pitfall's knob for this variant.
    variant = variable(str, value='')

    #: The samples of the variant's main figure, comma-separated.
    sample_values = variable(str, value='')

    #: What the main figure measures: ``storage``, ``page cache``, ``gap``.
    measures = variable(str, value='')

    #: Benchmark tool and its version, as it reports it.
    tool = variable(str, value='')
    tool_version = variable(str, value='')

    #: Node(s) the benchmark ran on.
    node = variable(str, value='')

    #: Scratch directory, its file system type and mount options.
    scratch = variable(str, value='')
    scratch_fstype = variable(str, value='')
    scratch_mount_options = variable(str, value='')

    #: The exact command line of every sample.
    command_line = variable(str, value='')

    #: What the witness saw (empty where the check has none).
    witness = variable(str, value='')

    #: Why the figure may not mean what it usually means (empty if none).
    note = variable(str, value='')

    #: The Spack environment of the benchmark (``system`` without one) and
    #: the concrete spec of every benchmark package it launched, from the
    #: environment's lock.
    spack_env = variable(str, value='')
    spack_spec = variable(str, value='')


#: The records a variant copies from its rounds, and a gap from a variant
COPIED = ('samples', 'tool', 'tool_version', 'node', 'scratch',
          'scratch_fstype', 'scratch_mount_options', 'spack_env',
          'spack_spec')


class Rounds(rfm.RunOnlyRegressionTest, Recorded):
    '''Every variant of a pitfall in one job, round-robin (a fixture).

    One sample of a variant is the shell function ``run_sample``: by default
    it runs :meth:`variant_command` through the partition's launcher; a
    subclass may give a variant a longer body (:meth:`sample_body`: a server
    and a client, say).  ReFrame's own launcher line is the call of that
    function (the job's launcher is the local one; the partition's launcher
    is in every command instead).

    Subclasses set :attr:`tool`, :attr:`variants`, :attr:`tools_needed` and
    :attr:`version_command`, and implement :meth:`variant_command`.
    '''

    #: Root of the scratch directories; default: the partition's
    #: ``extras.scratch``, else the test's stage directory.  Each job makes
    #: a private directory below it and removes it on exit.
    #:
    #: :type: :class:`str` or :obj:`None`
    #: :default: :obj:`None`
    scratch_dir = variable(str, type(None), value=None)

    #: The values of the pitfall's knob, in the order of every round
    variants = ()

    #: The benchmark programs the rounds launch (what Spack must provide)
    programs = ()

    #: Whether the benchmark writes to a scratch directory
    uses_scratch = True

    valid_systems = ['*']
    valid_prog_environs = ['*']
    executable = 'run_sample'

    @classmethod
    def launched(cls):
        '''The benchmark programs the rounds launch.'''
        return cls.programs

    def tools_needed(self):
        '''Executables that must be on the node, or the check is skipped.'''
        raise NotImplementedError

    def version_command(self):
        '''A shell command printing the tool's version, or None.'''
        return None

    def variant_command(self, variant):
        '''The command line of one sample of ``variant``.'''
        raise NotImplementedError

    #: The file a sample's standard output goes to (None: the job's), and
    #: the files the tool writes itself; each is kept, pass or fail, as
    #: ``<stem>-<variant>-<sample><suffix>`` (:meth:`output`)
    stdout_file = None
    output_files = ()

    def sample_body(self, variant):
        '''Shell lines of one sample of ``variant``: they leave in ``cmd``
        the command that failed, if any, may say in ``what`` what happened,
        and end with its exit status.'''
        redirect = f' > {self.stdout_file}' if self.stdout_file else ''
        return [f'cmd="{self.variant_command(variant)}"', f'$cmd{redirect}']

    def output(self, name, variant='$variant', sample='$sample'):
        '''Where output file ``name`` of a sample is kept.'''
        stem, suffix = os.path.splitext(name)
        return f'{stem}-{variant}-{sample}{suffix}'

    def setup_commands(self):
        '''Shell lines run once before the witnesses and the rounds; they
        may record a variant as unsupported (the variant check is then
        skipped, saying why) and add it to ``$unsupported``.'''
        return []

    def witness_commands(self, variant):
        '''Shell lines of the variant's witness, on a short sample.'''
        return []

    def sample_commands(self):
        '''Shell lines run after every sample, pass or fail, before the
        scratch directory is emptied (``$variant`` and ``$sample`` are set):
        keep its outputs under names of their own.'''
        names = [*self.output_files,
                 *([self.stdout_file] if self.stdout_file else [])]
        return [f'mv -f {name} {self.output(name)} 2>/dev/null'
                for name in names]

    def sample_record(self):
        '''Facts of a successful sample appended to its record (shell).'''
        return ''

    def expected_seconds(self):
        '''Upper bound of the seconds one sample takes.'''
        return 300

    @run_after('setup')
    def resolve_scratch(self):
        if self.scratch_dir is None:
            self.scratch_dir = self.current_partition.extras.get(
                'scratch', os.path.join(self.stagedir, 'scratch')
            )

        self.time_limit = (len(self.variants) * self.samples
                           * self.expected_seconds() + 300)

    def launcher(self):
        '''The launcher of the benchmark's processes.'''
        return self._launcher

    def launch(self, *argv, options=()):
        '''A command line as the launcher runs it, with extra launcher
        ``options``.'''
        launcher = self.launcher()
        saved = launcher.options
        launcher.options = [*saved, *options]
        try:
            prefix = launcher.run_command(self.job)
        finally:
            launcher.options = saved

        return ' '.join([prefix, *argv]).strip()

    def checked(self, command, what):
        '''Shell lines running ``command``; exit with a record on failure.'''
        return [
            command,
            'rc=$?',
            'if [ $rc -ne 0 ]; then',
            '    ' + records.echo('failed',
                                  f'{what} exited with code $rc: {command}'),
            '    exit $rc',
            'fi'
        ]

    def clean_scratch(self):
        if not self.uses_scratch:
            return []

        return [f'find {SCRATCH} -mindepth 1 -delete',
                f'sync -f {SCRATCH} 2>/dev/null || sync']

    def _prologue(self):
        lines = [
            '# One benchmark at a time on this node, whatever the policy',
            'if command -v flock >/dev/null; then',
            '    exec 9>>/tmp/microbench-$(id -u).lock && flock 9',
            'fi',
            records.echo('node', '$(hostname)'),
            records.echo('start', '$(date +%s.%N)'),
            '# Pass or fail: stop what still runs, remove the scratch files',
            'scratch=""',
            'cleanup() {',
            '    kill $(jobs -p) 2>/dev/null',
            '    wait',
            '    if [ -n "$scratch" ]; then rm -rf -- "$scratch"; fi',
            '}',
            'trap cleanup EXIT',
            "trap 'exit 143' TERM",
            "trap 'exit 130' INT",
        ]
        for tool in self.tools_needed():
            lines += [f'if ! command -v {tool} >/dev/null 2>&1; then',
                      '    ' + records.echo('missing', tool),
                      '    exit 0',
                      'fi']

        if self.version_command():
            lines.append(records.echo('version',
                                      f'$({self.version_command()} 2>&1)'))

        if not self.uses_scratch:
            return lines

        root = self.scratch_dir
        return lines + [
            *self.checked(f'mkdir -p {root}', 'mkdir'),
            f'scratch=$(mktemp -d {root}/{self.unique_name}.XXXXXX) || {{',
            '    ' + records.echo('failed', f'mktemp -d in {root} exited '
                                  'with code $?'),
            '    exit 1',
            '}',
            records.echo('scratch', SCRATCH),
            records.echo('scratch_fstype',
                         '$(findmnt -n -o FSTYPE --target $scratch)'),
            records.echo('scratch_mount_options',
                         '$(findmnt -n -o OPTIONS --target $scratch)'),
        ]

    @run_before('run')
    def write_rounds(self):
        # The partition's launcher goes into every command; ReFrame's own
        # launcher line only calls run_sample
        self._launcher = self.job.launcher
        self.job.launcher = getlauncher('local')()
        # ReFrame gives the job its tasks only when it writes the script;
        # the launch lines need them now
        self.job.num_tasks = self.num_tasks
        self.job.num_tasks_per_node = self.num_tasks_per_node
        bodies = []
        for variant in self.variants:
            bodies += [f'    {variant})',
                       *(f'        {line}' for line in self.sample_body(variant)),
                       '        ;;']

        self.prerun_cmds = [
            *self._prologue(),
            'unsupported=""',
            *self.setup_commands(),
            *(line for v in self.variants for line in self.witness_commands(v)),
            *(records.echo('command', f'{v}: {self.variant_command(v)}')
              for v in self.variants),
            '# One sample of $variant; $cmd is the command that failed, if any',
            'run_sample() {',
            '    case $variant in',
            *bodies,
            '    esac',
            '}',
            'failed=""',
            '# Round-robin: one sample of every variant per round',
            f'for sample in $(seq 1 {self.samples}); do',
            f'for variant in {" ".join(self.variants)}; do',
            'case " $failed $unsupported " in *" $variant "*) continue ;; esac',
            f'echo "{STDERR_MARK}$variant sample $sample" >&2',
            'what=""',
        ]
        self.postrun_cmds = [
            'rc=$?',
            *self.sample_commands(),
            'if [ $rc -ne 0 ]; then',
            '    ' + records.echo('failed', f'$variant: ${{what:-{self.tool} '
                                  'exited with code $rc}: $cmd'),
            '    failed="$failed $variant"',
            'else',
            '    ' + records.echo('sample',
                                  f'$variant: $sample{self.sample_record()}'),
            'fi',
            *self.clean_scratch(),
            'done',
            'done',
            records.echo('end', '$(date +%s.%N)'),
        ]

    def explain(self, failure, variant=None):
        '''Diagnosis of a failure, from what the tool printed on stderr
        (for one variant, or last); appended to the failure message.'''
        return ''

    def stderr_of(self, variant=None):
        '''What the job printed on stderr during the last run of
        ``variant`` (the witness or a sample), or since the last marker.'''
        blocks, current = {}, None
        for line in self.read_stderr().splitlines():
            if line.startswith(STDERR_MARK):
                current = line[len(STDERR_MARK):].split()[0]
                blocks[current] = []
            else:
                blocks.setdefault(current, []).append(line)

        return '\n'.join(blocks.get(variant if variant else current, []))

    @sanity_function
    def collect(self):
        self.collect_records()
        return True

    def collect_records(self):
        '''Read the job's records; skip or fail the rounds as they say.'''
        self.records = records.parse(self.read_output())
        recs = self.records
        self.node = ','.join(recs.get('node', []))
        if 'missing' in recs:
            self.skip(f'{recs["missing"][0]} not found on PATH '
                      f'on {self.node or "the node"}')

        for failure in recs.get('failed', []):
            if failure.split(': ', 1)[0] not in self.variants:
                raise SanityError(failure + self.explain(failure))

        if not recs.get('node'):
            raise SanityError(f'the job printed no records: it did not run '
                              f'(see {self.job.stdout}, {self.job.stderr})')

        if 'end' not in recs:
            raise SanityError('the job ended before its last round '
                              '(killed or timed out?)')

        self.tool_version = ' '.join(recs.get('version', []))
        self.spack_env, self.spack_spec = spack.record(
            self.current_environ.extras.get('spack_env'), self.launched()
        )
        self.scratch = ' '.join(recs.get('scratch', []))
        self.scratch_fstype = ' '.join(recs.get('scratch_fstype', []))
        self.scratch_mount_options = ' '.join(
            recs.get('scratch_mount_options', [])
        )

    def read_output(self, name=None):
        try:
            with open(os.path.join(self.stagedir,
                                   name or self.job.stdout)) as fp:
                return fp.read()
        except OSError as err:
            raise SanityError(f'no job output: {err}') from None

    def last_output(self, name, variant):
        '''Output file ``name`` of the last sample of ``variant`` (the failed
        one, if it failed), or ''.'''
        stem, suffix = os.path.splitext(name)
        prefix, kept = f'{stem}-{variant}-', {}
        for path in glob.glob(os.path.join(self.stagedir,
                                           f'{prefix}*{suffix}')):
            sample = os.path.basename(path)[len(prefix):][:-len(suffix)
                                                          or None]
            if sample.isdigit():
                kept[int(sample)] = os.path.basename(path)

        return self.read_file(kept[max(kept)]) if variant and kept else ''

    def read_file(self, name):
        '''A file of the stage directory, or '' if there is none.'''
        try:
            with open(os.path.join(self.stagedir, name)) as fp:
                return fp.read()
        except OSError:
            return ''

    def read_stderr(self):
        try:
            return self.read_output(self.job.stderr)
        except SanityError:
            return ''


class VariantCheck(rfm.RunOnlyRegressionTest, Recorded):
    '''One variant of a pitfall: its figures come from the rounds job that
    measured it together with every other variant of the pitfall.

    Subclasses set :attr:`knob` (the name of their parameter, or a tuple of
    names: the variant is then their values joined by dots), a ``rounds =
    fixture(..., scope='environment')`` and :attr:`main_figures`, and
    implement :meth:`validate_samples`, which records every figure
    (:meth:`record_figure`).  A figure is reported as its median, min and
    max over the samples: ``<name>_median_<unit>``, ``_min_``, ``_max_``.
    '''

    #: Name of the parameter that is the pitfall's knob (or a tuple)
    knob = None

    #: The figures of a variant, (name, unit) or a list of them, the main one
    #: first, by :meth:`figure_key`
    main_figures = {}

    #: Figures a variant may have to report as cache figures at run time
    #: (:meth:`demote_to_cache`)
    cache_prone = ()

    valid_systems = ['*']
    valid_prog_environs = ['*']
    local = True
    executable = 'true'

    def figure_key(self):
        '''Which entry of :attr:`main_figures` this variant reports.'''
        return next(iter(self.main_figures))

    def figure_specs(self):
        '''[(name, unit), ...] of this variant's figures, main first.'''
        return _as_list(self.main_figures[self.figure_key()])

    @classmethod
    def figure_units(cls):
        '''{figure name: unit} of every figure a variant may report.'''
        figures = {figure_name(name + suffix, stat, unit): unit
                   for specs in cls.main_figures.values()
                   for name, unit in _as_list(specs)
                   for suffix in ('', '_cache')
                   if not suffix or name in cls.cache_prone
                   for stat in STATISTICS}
        for name, fn in cls._rfm_perf_fns.items():
            figures[name] = inspect.getclosurevars(fn).nonlocals['unit']

        return figures

    @run_after('init')
    def record_variant(self):
        knobs = self.knob if isinstance(self.knob, tuple) else (self.knob,)
        self.variant = '.'.join(str(getattr(self, k)) for k in knobs)
        self.figures = {}
        self.perf_variables = {
            **{figure_name(name, stat, unit): sn.make_performance_function(
                self._statistic, unit, name, stat
            ) for name, unit in self.figure_specs() for stat in STATISTICS},
            **self.perf_variables
        }

    def _statistic(self, name, stat):
        return getattr(self.figures[name], stat)

    def record_figure(self, values, name=None):
        '''Record the samples of a figure (default: the main one).'''
        specs = dict(self.figure_specs())
        name = name or self.figure_specs()[0][0]
        self.figures[name] = Samples(values, specs[name])

    def check_ceilings(self, nodes=1, cached=()):
        '''Fail if a write or read figure, per node, is above the
        partition's storage ceiling (figures in ``cached`` measure a cache
        by design and are exempt).'''
        for name in ('write', 'read'):
            if name in cached or name not in self.figures:
                continue

            message = ceilings.violation(
                self.figures[name].scaled(1 / nodes),
                ceilings.ceiling(self.current_partition,
                                 f'storage_{name}_mib_s'),
                f'storage {name}' + (' (per node)' if nodes > 1 else ''),
                self.current_partition.fullname
            )
            if message:
                raise SanityError(message)

    def demote_to_cache(self, name):
        '''Report figure ``name`` as a cache figure, ``<name>_cache_*``: no
        storage reference applies to it.  Say why in :attr:`note`.'''
        unit = dict(self.figure_specs())[name]
        self.figures[f'{name}_cache'] = self.figures[name]
        for stat in STATISTICS:
            del self.perf_variables[figure_name(name, stat, unit)]
            self.perf_variables[figure_name(f'{name}_cache', stat, unit)] = (
                sn.make_performance_function(self._statistic, unit,
                                             f'{name}_cache', stat)
            )

    @property
    def figure(self):
        '''The samples of the main figure.'''
        return self.figures[self.figure_specs()[0][0]]

    def validate_samples(self, recs):
        '''Parse the samples of the variant, set :attr:`figure`; raise
        :class:`SanityError` saying what is wrong with them.'''
        raise NotImplementedError

    @sanity_function
    def validate(self):
        rounds = self.rounds
        for name in COPIED:
            setattr(self, name, getattr(rounds, name))

        recs = records.of_variant(rounds.records, self.variant)
        if 'unsupported' in recs:
            self.skip(recs['unsupported'][0])

        self.command_line = ' '.join(recs.get('command', []))
        if 'failed' in recs:
            failure = recs['failed'][-1]
            raise SanityError(f'{failure}'
                              f'{rounds.explain(failure, self.variant)}')

        ran = len(recs.get('sample', []))
        if ran != rounds.samples:
            raise SanityError(f'{ran} of {rounds.samples} samples of '
                              f'{self.variant} ran')

        self.validate_samples(recs)
        self.sample_values = str(self.figure)
        return True


class GapCheck(rfm.RunOnlyRegressionTest, Recorded):
    '''The gaps between the variants of one pitfall check.

    Each gap is the ratio of the median of a benchmark-default variant to the
    median of a realistic one.  The inputs are the variants of
    :attr:`pitfall` in the same ReFrame session, on the same partition and
    programming environment (a dependency on each, ``udeps.by_env``), all
    measured round-robin by one job on one node.
    '''

    #: The variant check class whose variants are compared
    pitfall = None

    #: gap name -> (benchmark-default variant, realistic variant[, figure
    #: name, default: the main figure])
    gaps = {}

    valid_systems = ['*']
    valid_prog_environs = ['*']
    local = True
    executable = 'true'
    measures = 'gap'
    variant = 'gap'

    @run_after('init')
    def depend_on_variants(self):
        self.valid_systems = self.pitfall.var_space[
            'valid_systems'
        ].default_value
        for name in self._test_names().values():
            self.depends_on(name, udeps.by_env)

        self.perf_variables = {
            name: sn.make_performance_function(self._ratio, 'x', *pair)
            for name, pair in self.gaps.items()
        }

    def _test_names(self):
        '''{variant: test name} of the pitfall's variants the gaps use.'''
        knob = self.pitfall.knob
        knobs = knob if isinstance(knob, tuple) else (knob,)
        used = {v for pair in self.gaps.values() for v in pair[:2]}
        names = {}
        for num in range(self.pitfall.num_variants):
            params = self.pitfall.get_variant_info(num)['params']
            variant = '.'.join(str(params[k]) for k in knobs)
            if variant in used:
                names[variant] = self.pitfall.variant_name(num)

        return names

    def _inputs(self):
        return {variant: self.getdep(name)
                for variant, name in self._test_names().items()}

    def _ratio(self, default, realistic, figure=None):
        inputs = self._inputs()
        default, realistic = inputs[default], inputs[realistic]
        figure = figure or default.figure_specs()[0][0]
        return (default.figures[figure].median
                / realistic.figures[figure].median)

    @sanity_function
    def collect_inputs(self):
        inputs = self._inputs()
        first = next(iter(inputs.values()))
        for name in COPIED:
            setattr(self, name, getattr(first, name))

        self.command_line = ' ; '.join(f'{name}: {dep.command_line}'
                                       for name, dep in inputs.items())
        self.sample_values = ' ; '.join(f'{name}: {dep.sample_values}'
                                        for name, dep in inputs.items())
        self.note = ' ; '.join(sorted({f'{name}: {dep.note}'
                                       for name, dep in inputs.items()
                                       if dep.note}))
        return True
