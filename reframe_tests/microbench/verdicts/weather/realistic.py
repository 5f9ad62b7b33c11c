'''What a user's job sees: the realistic figure of every pitfall, in the
words a user reads.

Every pitfall check measures a benchmark's default (the flattering
figure: the page cache, a hot buffer, a stat the client's cache answers)
and what a real job gets.  The weather shows only the latter, from the
check's docstring (reframe_tests/*.py):

- ``fio_cache_flags``: ``direct`` (O_DIRECT) and ``both`` (O_DIRECT and
  O_SYNC: what a service that must be durable sees), not ``buffered``
  (the page cache) nor ``sync`` alone;
- ``fio_fallocate``: ``none``, a file that grows as a log does (fio
  preallocates by default);
- ``fio_data_reduction``: ``incompressible``, data a compressing or
  deduplicating file system cannot shrink, as a user's is (fio's zeros and
  its own buffers are not);
- ``fio_completion_polling``: ``interrupt``, 4 KiB random reads whose
  completions interrupt (fio's io_uring default), not those that hold a
  core polling;
- ``ior_page_cache``: ``reorder_fsync`` (IO500's rules: flushed writes,
  reads of what another node wrote) of the easy (a file per task) and
  hard (one shared file) shapes, and the easy shape's ``odirect`` (no
  page cache; the hard shape's transfers cannot be O_DIRECT);
- ``elbencho_storage``: ``direct.grow`` (O_DIRECT, the file grows);
- ``lustre_striping``: ``one_stripe`` (a common default) and
  ``striped``, not the misaligned accesses;
- ``mdtest_metadata``: ``node`` (``-N 1``: a task stats and reads the
  files of another node), of both shapes;
- ``osu_buffer_reuse``: ``multiple`` (a buffer per message);
- ``fabtests_completion``: ``fd`` (a service that waits in an event loop);
- ``fabtests_binding``: ``bound`` (the launcher's default binding, which
  a user's job gets).

A figure read from the client's cache on a one-node partition is stored
under a ``*_cache_*`` name (mdtest, IOR): it is not in the table, so the
weather never shows it.  A check with no realistic figure (a gap, the
IOR scaling sweep's peaks, which have no samples) is left out.
'''

import collections

#: What a user reads of a figure: ``words`` (what is measured),
#: ``group`` (the page's heading it goes under)
Words = collections.namedtuple('Words', 'words group')

#: The groups of the page, in order
GROUPS = ('Writes and reads', 'Metadata', 'Network')

_IO, _MD, _NET = GROUPS

#: (check, variant, figure) -> what a user reads; the page's order
TABLE = {
    ('fio_cache_flags', 'direct', 'write_median_mib_s'):
        Words('O_DIRECT writes', _IO),
    ('fio_cache_flags', 'both', 'write_median_mib_s'):
        Words('durable writes (O_DIRECT and O_SYNC)', _IO),
    ('fio_fallocate', 'none', 'write_median_mib_s'):
        Words('writes to a growing file', _IO),
    ('fio_data_reduction', 'incompressible', 'write_median_mib_s'):
        Words('O_DIRECT writes of data no file system can shrink', _IO),
    ('fio_completion_polling', 'interrupt', 'read_median_iops'):
        Words('4 KiB random O_DIRECT reads (io_uring)', _IO),
    ('ior_page_cache', 'easy.odirect', 'write_median_mib_s'):
        Words('O_DIRECT writes, a file per task (IOR)', _IO),
    ('ior_page_cache', 'easy.odirect', 'read_median_mib_s'):
        Words('O_DIRECT reads, a file per task (IOR)', _IO),
    ('ior_page_cache', 'easy.reorder_fsync', 'write_median_mib_s'):
        Words('flushed writes, a file per task (IOR)', _IO),
    ('ior_page_cache', 'easy.reorder_fsync', 'read_median_mib_s'):
        Words('reads of files another node wrote (IOR)', _IO),
    ('ior_page_cache', 'hard.reorder_fsync', 'write_median_mib_s'):
        Words('flushed writes to one shared file (IOR)', _IO),
    ('ior_page_cache', 'hard.reorder_fsync', 'read_median_mib_s'):
        Words('reads of a shared file another node wrote (IOR)', _IO),
    ('elbencho_storage', 'direct.grow', 'write_median_mib_s'):
        Words('O_DIRECT writes, many threads (elbencho)', _IO),
    ('elbencho_storage', 'direct.grow', 'read_median_mib_s'):
        Words('O_DIRECT reads, many threads (elbencho)', _IO),
    ('lustre_striping', 'one_stripe', 'write_median_mib_s'):
        Words('writes to one shared file of one stripe', _IO),
    ('lustre_striping', 'striped', 'write_median_mib_s'):
        Words('writes to one striped shared file', _IO),
    ('mdtest_metadata', 'easy.node', 'create_median_ops_s'):
        Words('file creates, a directory per task', _MD),
    ('mdtest_metadata', 'easy.node', 'stat_median_ops_s'):
        Words('stats of files another node made', _MD),
    ('mdtest_metadata', 'easy.node', 'read_median_ops_s'):
        Words('small reads of files another node made', _MD),
    ('mdtest_metadata', 'easy.node', 'remove_median_ops_s'):
        Words('file removes, a directory per task', _MD),
    ('mdtest_metadata', 'hard.node', 'create_median_ops_s'):
        Words('file creates in one shared directory', _MD),
    ('mdtest_metadata', 'hard.node', 'stat_median_ops_s'):
        Words('stats in one shared directory', _MD),
    ('mdtest_metadata', 'hard.node', 'remove_median_ops_s'):
        Words('file removes in one shared directory', _MD),
    ('osu_buffer_reuse', 'osu_bw.multiple', 'bandwidth_median_mib_s'):
        Words('MPI bandwidth between two nodes', _NET),
    ('osu_buffer_reuse', 'osu_latency.multiple', 'latency_median_us'):
        Words('MPI latency', _NET),
    ('fabtests_binding', 'bound', 'bandwidth_median_mib_s'):
        Words('libfabric bandwidth', _NET),
    ('fabtests_completion', 'fd', 'rtt_median_us'):
        Words('libfabric round trip, waiting on a file descriptor', _NET),
}

#: A figure's place on the page
ORDER = {key: index for index, key in enumerate(TABLE)}


def words(check, variant, figure):
    '''What a user reads of a figure, or None: not a realistic one.'''
    return TABLE.get((check, variant, figure))


def pick(frame):
    '''The rows of ``frame`` (rows of :func:`figures.load`) of realistic
    figures.'''
    keys = zip(frame['check'], frame['variant'], frame['figure'])
    return frame[[key in TABLE for key in keys]]
