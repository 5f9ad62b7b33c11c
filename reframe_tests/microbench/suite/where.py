'''Where the checks run: partitions are chosen by their features, never by
their names.

Features a partition of systems/ declares for the suite:

- ``network``: the network checks run here (one partition per facility
  system: the nodes and their NIC matter, not the storage target);
- ``pfs``: every node of a job shares the scratch, so a task may read what
  another node wrote (IOR, mdtest); a one-node partition shares it with
  itself;
- ``lustre``: the scratch may be Lustre (the striping checks run, and skip
  where ``lfs`` is missing);
- ``gpu``: the nodes have GPUs (IOR's GPU buffers, ``ior_gpu_buffer``, are
  measured there and nowhere else).

Checks that need none of these run on every partition, ReFrame's builtin
``generic`` system included (it has no features).
'''

#: Network checks
NETWORK = ['+network']

#: Multi-node storage checks on a scratch every node shares
SHARED_SCRATCH = ['+pfs']

#: Lustre layout checks
LUSTRE = ['+lustre']

#: Checks of GPU buffers
GPU = ['+gpu']
