'''GPU buffers: a host-buffer figure standing in for a GPU application's I/O
(IOR; GPU partitions only).

IOR's buffers live in host memory unless told otherwise; a GPU
application's I/O reads into and writes from GPU memory, through managed
memory's page migration or GPUDirect Storage, at another rate.  On a
partition with GPUs (the ``gpu`` feature), ``ior_gpu_buffer`` measures
where the tasks' buffers live (:mod:`microbench.tools.ior.gpu`): host,
managed and device memory (IOR 4.0.0's ``-O allocateBufferOnGPU=1``,
``--gpuDirect``) round-robin in one job, under IO500's rules (``-C -Q 1
-e``, the page-cache defence of ``ior_page_cache``) and with O_DIRECT
(which device memory needs); ``ior_gpu_buffer_gap`` is the host figure
over the GPU one.  Elsewhere neither is generated.
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter, run_after

from microbench.suite import where
from microbench.suite.gap import GapCheck, rounds_of
from microbench.tools.ior import IorRounds, IorVariantCheck, gpu


class ior_gpu_buffer_rounds(IorRounds):
    '''Write then read with the tasks' buffers in host, managed and device
    memory, round-robin (:data:`microbench.tools.ior.gpu.VARIANTS`).'''

    variants = gpu.VARIANTS

    def point(self, variant):
        shape, defence, _ = gpu.split(variant)
        return shape, defence, self.nodes(), self.tasks_per_node

    def buffer_options(self, variant):
        return gpu.BUFFERS[gpu.split(variant)[2]]

    def launch_options(self, variant):
        # IOR 4.0.0 built with CUDA puts every task on GPU 0: the
        # partition's launcher options give each task of a node its own
        return tuple(self.current_partition.extras.get('gpu_bind', ()))

    def darshan_command(self, variant):
        # Device memory is read and written by cuFile (GPUDirect Storage),
        # not by the POSIX calls Darshan counts: no witness to judge
        if gpu.split(variant)[2] == 'device':
            return None

        return super().darshan_command(variant)


@rfm.simple_test
class ior_gpu_buffer(IorVariantCheck):
    '''Write and read bandwidth with the tasks' buffers in host, managed
    or device memory, in one shape under one cache defence.'''

    valid_systems = where.GPU

    #: ``easy`` (file per process, 1 MiB) or ``hard`` (shared file, 47008 B).
    shape = parameter(('easy', 'hard'))

    #: ``reorder_fsync`` (-C -Q 1 -e, IO500's rules) or ``odirect``.
    defence = parameter(('reorder_fsync', 'odirect'))

    #: Where every task's buffer lives: ``host`` (IOR's default),
    #: ``managed`` (-O allocateBufferOnGPU=1), ``device`` (--gpuDirect,
    #: O_DIRECT only).
    buffer = parameter(tuple(gpu.BUFFERS))

    knob = ('shape', 'defence', 'buffer')
    rounds = fixture(ior_gpu_buffer_rounds, scope='environment')
    reference = {'$ref': 'references/ior.yaml'}
    witnesses = ('darshan', 'residency', 'one_kernel', 'data_to_memory',
                 'cold_start')

    @run_after('init')
    def skip_unmeasured(self):
        why = gpu.unmeasured(self.shape, self.defence, self.buffer)
        self.skip_if(why is not None, why)


@rfm.simple_test
class ior_gpu_buffer_gap(GapCheck):
    '''How much a host buffer's figure differs from a GPU buffer's.'''

    pitfall = ior_gpu_buffer
    rounds = rounds_of(ior_gpu_buffer)
    gaps = {
        # IO500's rules: host over managed memory
        'easy_write_host_over_managed': ('easy.reorder_fsync.host',
                                         'easy.reorder_fsync.managed',
                                         'write'),
        'easy_read_host_over_managed': ('easy.reorder_fsync.host',
                                        'easy.reorder_fsync.managed', 'read'),
        'hard_write_host_over_managed': ('hard.reorder_fsync.host',
                                         'hard.reorder_fsync.managed',
                                         'write'),
        'hard_read_host_over_managed': ('hard.reorder_fsync.host',
                                        'hard.reorder_fsync.managed', 'read'),
        # O_DIRECT: host over device memory (GPUDirect Storage)
        'easy_write_odirect_host_over_device': ('easy.odirect.host',
                                                'easy.odirect.device',
                                                'write'),
        'easy_read_odirect_host_over_device': ('easy.odirect.host',
                                               'easy.odirect.device', 'read'),
    }
    reference = {'$ref': 'references/ior.yaml'}
    witnesses = ('cold_start',)
