'''The first IO500 drivers (2017-2020, VI4IO/io-500-dev): a site's
``io500.sh`` sets ``io500_*`` variables and sources the fixed driver
(``io500_fixed.sh``, earlier ``io500_core.sh``), which runs every phase
with ``myrun``: ``$io500_mpirun $io500_mpiargs`` before the command; the
first of all (``io_500_core.sh``) ran ``$mpirun $ior_cmd ...`` with the
site's ``ior_easy_params`` and no ``-N`` for mdtest.

A script that sources the driver is read as running the commands below
at that line, with the variables the script set (the driver's defaults
where it set none).  They are the phases' commands of
``utilities/io500_fixed.sh`` @ 90ec4b37 (``ior_easy``, ``mdt_easy``,
``ior_hard``, ``mdt_hard``: their ``params_*`` and ``myrun`` lines),
written here as the audit reads them; the driver itself, read as a
script, gives the same commands through its ``myrun`` function
(:mod:`.shellflow`).  Those of ``io_500_core.sh`` are its own lines
(``site-configs/sandia/old/io_500_core.sh`` @ 90ec4b37).
'''

_RUN = '${io500_mpirun:-mpirun} $io500_mpiargs'
_IOR = f'{_RUN} ${{io500_ior_cmd:-ior}}'
_MDTEST = f'{_RUN} ${{io500_mdtest_cmd:-mdtest}}'
_EASY = ('$io500_ior_easy_params -b ${io500_ior_easy_size:-9920000}m -F '
         '-i 1 -C -Q 1 -g -k -e -o $io500_workdir/ior_easy/ior_file_easy')
_HARD = ('-s ${io500_ior_hard_writes_per_proc:-1900000} -a '
         '${io500_ior_hard_api:-POSIX} -i 1 -C -Q 1 -g -k -e -t 47008 '
         '-b 47008 -o $io500_workdir/ior_hard/IOR_file')
_MD_EASY = ('-F -P -d $io500_workdir/mdt_easy -n '
            '${io500_mdtest_easy_files_per_proc:-900000} '
            '$io500_mdtest_easy_params -N 1')
_MD_HARD = ('-t -F -P -w 3901 -e 3901 -d $io500_workdir/mdt_hard -n '
            '${io500_mdtest_hard_files_per_proc:-950000} -a '
            '${io500_mdtest_hard_api:-POSIX} -N 1')
_TIMER = '${io500_stonewall_timer:-300}'

#: The commands the fixed driver runs, in its order (``main``)
LINES = (
    f'{_IOR} -w {_EASY} -D {_TIMER}',
    f'{_MDTEST} -C {_MD_EASY} -W {_TIMER}',
    f'{_IOR} -w {_HARD} -D {_TIMER}',
    f'{_MDTEST} -C {_MD_HARD} -W {_TIMER}',
    f'{_IOR} -r -R {_EASY}',
    f'{_MDTEST} -T {_MD_EASY}',
    f'{_IOR} -r -R {_HARD}',
    f'{_MDTEST} -T {_MD_HARD}',
    f'{_MDTEST} -E {_MD_HARD}',
)

_CORE_EASY = ('-C -Q 1 -g -G 27 -k -vv -e -F $ior_easy_params -o '
              '$workdir/ior_easy/ior_file_easy')
_CORE_HARD = ('-C -Q 1 -g -G 27 -k -vv -e -t 47000 -b 47000 -s '
              '${ior_hard_writes_per_proc:-1} -o $workdir/ior_hard/IOR_file')
_CORE_MD_EASY = ('-v -u -L -F -d $workdir/mdt_easy -u -n '
                 '${mdtest_easy_files_per_proc:-1}')
_CORE_MD_HARD = ('-t -F -w 3900 -e 3900 -d $workdir/mdt_hard -n '
                 '${mdtest_hard_files_per_proc:-1}')
_CORE_IOR = '${mpirun:-mpirun} ${ior_cmd:-ior}'
_CORE_MDTEST = '${mpirun:-mpirun} ${mdtest_cmd:-mdtest}'

#: The commands the first core driver runs, in its order
CORE_LINES = (
    f'{_CORE_IOR} -w {_CORE_EASY}',
    f'{_CORE_MDTEST} -C {_CORE_MD_EASY}',
    f'{_CORE_IOR} -w {_CORE_HARD}',
    f'{_CORE_MDTEST} -C {_CORE_MD_HARD}',
    f'{_CORE_IOR} -r -C {_CORE_EASY}',
    f'{_CORE_MDTEST} -T {_CORE_MD_EASY}',
    f'{_CORE_IOR} -r -C {_CORE_HARD}',
    f'{_CORE_MDTEST} -T {_CORE_MD_HARD}',
)

#: The file names of the drivers a site's script sources -> what they run
DRIVERS = {'io500_fixed.sh': LINES, 'io500_core.sh': LINES,
           'io_500_core.sh': CORE_LINES}
