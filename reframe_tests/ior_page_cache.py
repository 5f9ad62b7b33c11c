'''S4. Read-after-write from the page cache (IOR).

Pitfall catalogue S4; Lockwood, "Basics of I/O Benchmarking" (2016); IO500's
rules.

IOR writes, then reads back what it wrote.  Naively the read comes from the
client's page cache (146 GB/s on 4 nodes in the blog: more than the network
can carry), and so does an unflushed write.  The defences: ``-e`` (fsync at
the end of each phase, its time counted), ``-C -Q 1`` (each
task reads what a task of the next node wrote), both (IO500's rules),
``--posix.odirect`` (no page cache) and ``-M`` (fill the node's memory so the
cache cannot hold the data).  With every task on one node, ``-C`` cannot help:
the read is then reported as a cache figure, saying why.  Whatever the
defence, the residency witness (:mod:`microbench.tools.ior.residency`)
looks, on a short sample split between IOR's phases, at what of the files
each node is about to read its page cache holds: a buffered read found
resident is a cache figure, whatever its defence promised.  Shapes are IO500's
easy (a file per process, 1 MiB transfers) and hard (one shared file,
interleaved 47008-byte transfers), stonewalled to measure sustained writes.

IO500's read after read (``reread``, IO500 2026): after its read one node
away (``-C -Q 1``) every node's page cache holds its neighbour's data, so
a second read one node away is a cache read.  The defence runs IO500's
sequence (:func:`microbench.tools.ior.command.build_reread`): the write,
the read one node away, then a second read two nodes away, ``-C -Q 2``
(not ``-C -C``, which IOR 4.0.0 shifts no further), its own figure,
``reread``.  Its Darshan witness says what share of the bytes the second
read got its node had already written or read (0 on three nodes or more,
else a cache figure: :mod:`microbench.tools.ior.reread`).  Two nodes away
is the writing node on two nodes and every node itself on one: there the
variant is skipped, saying why.

The same defences with the tasks' buffers in GPU memory are
``ior_gpu_buffer`` (``ior_gpu_buffer.py``).
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter, run_after, variable

from microbench import knobs
from microbench.suite.gap import GapCheck, rounds_of
from microbench.tools.ior import IorRounds, IorVariantCheck, reread
from microbench.tools.ior.command import (REREAD_DEFENCE, SEQUENCE_FILES,
                                          reread_skipped)

SHAPES = ('easy', 'hard')
DEFENCES = ('none', 'fsync', 'reorder', 'reorder_fsync', 'odirect', 'memory',
            REREAD_DEFENCE)

#: O_DIRECT needs transfers aligned to the device's blocks; IOR aborts on
#: the hard shape's 47008-byte ones
IMPOSSIBLE = {'hard.odirect': 'O_DIRECT needs transfers aligned to the '
                              'device block; the hard shape\'s 47008-byte '
                              'transfers are not (IOR aborts)'}


class ior_page_cache_rounds(IorRounds):
    '''Write then read with each cache defence, in both shapes.'''

    variants = tuple(v for v in (f'{s}.{d}' for s in SHAPES for d in DEFENCES)
                     if v not in IMPOSSIBLE)
    output_files = (*IorRounds.output_files,
                    *(name for files in SEQUENCE_FILES.values()
                      for name in files))

    #: Memory the ``memory`` defence fills on every node (IOR ``-M``).
    #:
    #: :type: :class:`str`
    #: :default: ``'80%'``
    memory_per_node = variable(str, value=knobs.IOR_MEMORY_PER_NODE)

    def defence_options(self, defence):
        # -C -Q 1, -e, --posix.odirect: the one spelling of every IOR check
        # (microbench.tools.ior.command); -M takes this check's share
        if defence == 'memory':
            return ('-M', self.memory_per_node)

        return super().defence_options(defence)

    @run_after('setup')
    def drop_reread(self):
        # Not run where it cannot be measured: its check says why
        if reread_skipped(self.nodes()):
            self.variants = tuple(v for v in self.variants
                                  if not v.endswith(f'.{REREAD_DEFENCE}'))


@rfm.simple_test
class ior_page_cache(IorVariantCheck):
    '''Write and read bandwidth under one cache defence, in one shape.'''

    #: ``easy`` (file per process, 1 MiB) or ``hard`` (shared file, 47008 B).
    shape = parameter(SHAPES)

    #: ``none`` (IOR's default), ``fsync`` (-e), ``reorder`` (-C -Q 1),
    #: ``reorder_fsync`` (-C -Q 1 -e, IO500's rules), ``odirect``,
    #: ``memory`` (-M), ``reread`` (IO500's read after read: write; read
    #: -C -Q 1 -e; read again -C -Q 2 -e; 3 nodes or more).
    defence = parameter(DEFENCES)

    knob = ('shape', 'defence')
    main_figures = {'ior': IorVariantCheck.main_figures['ior'],
                    REREAD_DEFENCE: [(reread.FIGURE, 'MiB/s'),
                                     *IorVariantCheck.main_figures['ior']]}
    cache_prone = (*IorVariantCheck.cache_prone, reread.FIGURE)
    limits = {**IorVariantCheck.limits,
              reread.FIGURE: IorVariantCheck.limits['read']}
    rounds = fixture(ior_page_cache_rounds, scope='environment')
    reference = {'$ref': 'references/ior.yaml'}
    witnesses = ('darshan', 'residency', 'one_kernel', 'data_to_memory',
                 'cold_start')

    @run_after('init')
    def skip_impossible(self):
        self.skip_if(self.variant in IMPOSSIBLE, IMPOSSIBLE.get(self.variant))

    @run_after('setup')
    def skip_reread(self):
        if self.defence == REREAD_DEFENCE:
            why = reread_skipped(self.rounds.nodes())
            self.skip_if(why is not None, why)

    def figure_key(self):
        return REREAD_DEFENCE if self.defence == REREAD_DEFENCE else 'ior'

    def judge_darshan(self, frame, logs):
        super().judge_darshan(frame, logs)
        if self.defence == REREAD_DEFENCE:
            reread.judge_darshan(self, logs)

    def cache_figures(self):
        # Nothing flushed is a cache write; read back by the writer, a cache
        # read
        return {'none': ('write', 'read'), 'fsync': ('read',),
                'reorder': ('write',)}.get(self.defence, ())


@rfm.simple_test
class ior_page_cache_gap(GapCheck):
    '''How much the page cache flatters IOR's figures.'''

    pitfall = ior_page_cache
    rounds = rounds_of(ior_page_cache)
    gaps = {
        # Read back from the cache over read with O_DIRECT
        'easy_read_none_over_odirect': ('easy.none', 'easy.odirect', 'read'),
        # Naive over IO500's rules
        'easy_read_none_over_reorder_fsync': ('easy.none',
                                              'easy.reorder_fsync', 'read'),
        'hard_read_none_over_reorder_fsync': ('hard.none',
                                              'hard.reorder_fsync', 'read'),
        # An unflushed write over a flushed one
        'easy_write_none_over_fsync': ('easy.none', 'easy.fsync', 'write'),
        'hard_write_none_over_fsync': ('hard.none', 'hard.fsync', 'write'),
    }
    reference = {'$ref': 'references/ior.yaml'}
    witnesses = ('cold_start',)
