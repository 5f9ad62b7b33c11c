'''IOR 4.0.0's GPU buffers: where every task's I/O buffer lives.

A GPU application writes from and reads into GPU memory; IOR's default
buffer is host memory (``malloc``).  A host-buffer figure stands in for what
a GPU application's I/O does only if the copy between GPU and host costs
nothing, which nothing guarantees.  IOR 4.0.0 (the pinned release) can put
its buffer in

- ``managed`` memory (``-O allocateBufferOnGPU=1``: ``cudaMallocManaged``;
  the data pattern is filled and checked by the CPU), written with the
  usual POSIX calls, whose pages migrate between GPU and host;
- ``device`` memory (``--gpuDirect``: ``cudaMalloc``, then cuFile reads and
  writes, GPUDirect Storage), which needs O_DIRECT (``--posix.odirect``:
  IOR's POSIX backend aborts with "GPUDirect required direct I/O to be
  used!" without it).

As IOR 4.0.0 spells them (tag ``4.0.0`` of github.com/hpc/ior):
``src/parse_options.c`` (the directive ``allocateBufferOnGPU``, the flag
``gpuDirect``, which also sets the buffer to device memory),
``src/iordef.h`` (``ior_memory_flags``: 0 CPU, 1 managed, 2 device),
``src/aiori-POSIX.c`` (the POSIX backend's own ``gpuDirect`` flag, set by
the same ``--gpuDirect``, and its O_DIRECT requirement).  Both need an IOR
built with CUDA, and device memory one built with GPUDirect Storage
(spack_envs: ``ior+cuda``).

IOR's main branch after 4.0.0 renumbered the directive (1 managed, checked
by the CPU; 2 managed, checked by the GPU; 3 device: commit 5303fde) and
prints ``memoryBuffer`` and ``GPUDirect`` among the summary's Options;
4.0.0 prints neither.  Where the Options say them, they must say the
buffer 4.0.0's numbering asked for (:func:`check_options`): ``=2`` read by
a later IOR is managed memory, not device memory.
'''

from microbench.suite.output import OutputError

#: Where the buffer lives -> IOR 4.0.0's options for it
BUFFERS = {
    'host': (),
    'managed': ('-O', 'allocateBufferOnGPU=1'),
    'device': ('-O', 'allocateBufferOnGPU=2', '--gpuDirect'),
}

#: IOR 4.0.0's ior_memory_flags (src/iordef.h) -> what a later IOR's
#: Options say of it (memoryBuffer)
MEMORY_BUFFER = {0: 'CPU', 1: 'Managed', 2: 'GPU'}

#: The points of the GPU buffer check: (shape, defence) -> the buffers it
#: measures there, host first.  IO500's rules (-C -Q 1 -e) with host and
#: managed memory; O_DIRECT with all three (device memory needs it; the hard
#: shape's 47008-byte transfers cannot be O_DIRECT)
POINTS = {
    ('easy', 'reorder_fsync'): ('host', 'managed'),
    ('hard', 'reorder_fsync'): ('host', 'managed'),
    ('easy', 'odirect'): ('host', 'managed', 'device'),
}

#: Every variant, ``<shape>.<defence>.<buffer>``
VARIANTS = tuple(f'{shape}.{defence}.{buffer}'
                 for (shape, defence), buffers in POINTS.items()
                 for buffer in buffers)

def split(variant):
    '''(shape, defence, buffer) of a GPU buffer variant.'''
    shape, defence, buffer = variant.split('.')
    if buffer not in BUFFERS:
        raise ValueError(f'no IOR buffer {buffer!r} ({", ".join(BUFFERS)})')

    return shape, defence, buffer


def unmeasured(shape, defence, buffer):
    '''Why ``shape.defence.buffer`` is not measured, or None.'''
    if buffer in POINTS.get((shape, defence), ()):
        return None

    if buffer == 'device':
        return ('device memory is written with GPUDirect Storage, which '
                'needs O_DIRECT (IOR --gpuDirect with --posix.odirect)')

    return ('O_DIRECT needs transfers aligned to the device block; the '
            'hard shape\'s 47008-byte transfers are not (IOR aborts)')


def memory_flags(directives):
    '''IOR 4.0.0's ior_memory_flags that the ``-O`` directives of a
    command ({key: value}) ask; ``--gpuDirect`` then makes it device memory
    whatever they asked (IOR sets it after reading every option).'''
    value = directives.get('allocateBufferOnGPU', '0')
    if value not in ('0', '1', '2'):
        raise ValueError(f'IOR 4.0.0 has no allocateBufferOnGPU={value} '
                         f'(0 host, 1 managed, 2 device)')

    return int(value)


def check_options(options, asked):
    '''Where IOR's summary Options say where the buffer was (a later IOR
    than 4.0.0), it must be where ``asked`` put it.'''
    said = options.get('memoryBuffer')
    if said is not None and said != MEMORY_BUFFER[asked.gpu_memory]:
        raise OutputError(
            f'the Options say memoryBuffer {said}, not the asked '
            f'{MEMORY_BUFFER[asked.gpu_memory]} '
            f'(allocateBufferOnGPU={asked.gpu_memory} of IOR 4.0.0): an IOR '
            f'after 4.0.0 numbers its buffers otherwise')

    direct = options.get('GPUDirect')
    if direct is not None and str(direct) != str(int(asked.gpu_direct)):
        raise OutputError(f'the Options say GPUDirect {direct}, but '
                          f'--gpuDirect was '
                          f'{"" if asked.gpu_direct else "not "}asked')
