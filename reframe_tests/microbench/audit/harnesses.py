'''Test harnesses a script sources, whose shell functions run a
benchmark: a call of one is read as the command it runs.

IOR's own (``testing/test-lib.sh`` of hpc/ior @ ce2c1bd, sourced by its
``basic-tests.sh`` and ``complex-tests.sh`` and by sites' copies of them):
``IOR 2 -a POSIX -w ...`` runs ``$IOR_MPIRUN 2 $IOR_BIN_DIR/ior -a POSIX
-w ... -o $IOR_TMP/ior $IOR_EXTRA`` and ``MDTEST`` runs mdtest likewise
on ``-d $IOR_TMP/mdest``, with the harness's defaults where the script
sets none (``mpiexec -np``, ``./src``, ``/dev/shm``).  Written here as the
audit's functions read them (:class:`.shellflow.Functions`: ``$1`` the
first argument, ``${@:2}`` the rest); the harness's ``RANKS=$1; shift;
WHAT=...; $WHAT`` reads the same way where it is in the script itself.
'''

_RUN = '${IOR_MPIRUN:-mpiexec -np} $1 ${IOR_BIN_DIR:-./src}'
_TMP = '${IOR_TMP:-/dev/shm}'

#: A sourced file's name -> its functions that run a benchmark -> the
#: command each runs
RUNNERS = {
    'test-lib.sh': {
        'IOR': f'{_RUN}/ior ${{@:2}} -o {_TMP}/ior ${{IOR_EXTRA:-}}',
        'MDTEST': f'{_RUN}/mdtest ${{@:2}} -d {_TMP}/mdest '
                  f'${{MDTEST_EXTRA:-}} -V=4',
    },
}
