'''The inputs ``bench/audit_bounds.py`` grows: each a :class:`Case` made at
a size (``make(size)`` gives a file name and its bytes), the largest the
size issue 42 reported (a 2 MiB line, 5000 job sections, 10 000
continuation lines) or the size a later reading of the audit (issue 46)
could make grow: what ``microbench audit`` must judge (or refuse) in time
and memory linear in it.'''

GIB = 2**30
KIB = 2**10


class Case:
    '''An input made at a size: ``make(size)`` gives (file name, bytes);
    ``judged``: whether the audit must judge it (or refuse it).'''

    def __init__(self, name, sizes, unit, make, judged=True):
        self.name, self.sizes, self.unit = name, sizes, unit
        self.make, self.judged = make, judged


def _doubling(largest, points=4):
    return [largest // 2**k for k in reversed(range(points))]


def _script_of(name, line):
    '''``make(n)`` of a script of ``n`` lines, ``line(k)`` each.'''
    return lambda n: (name, ('#!/bin/bash\n' + ''.join(
        f'{line(k)}\n' for k in range(n))).encode())


def _fio_job_lines(count):
    return ''.join(f'[job{k}]\nrw=write\nsize=1g\n' for k in range(count))


def _global_and_jobs(count):
    return ('[global]\n' + 'bs=4k\n' * count
            + ''.join(f'[job{k}]\nrw=write\n' for k in range(count)))


def _assignments(count):
    return '#!/bin/bash\n' + ''.join(
        f'V{k}={k}\nfio --name=t{k} --rw=write --size=1g --direct=1 '
        f'--fallocate=none\n' for k in range(count))


CASES = [
    Case('a long word (2 MiB line)', _doubling(2 * 2**20), 'bytes',
         lambda n: ('line.cmd', b'fio --name=t --rw=write --size=1g '
                    b'--filename=' + b'a' * n + b'\n')),
    Case('many words on one line', _doubling(2 * 2**20), 'bytes',
         lambda n: ('words.cmd', b'fio --name=t --size=1g'
                    + b' --rw=write' * (n // 11) + b'\n')),
    Case('job sections (5000)', _doubling(5000), 'sections',
         lambda n: ('sections.fio', _fio_job_lines(n).encode())),
    Case('continuation lines (10 000)', _doubling(10000), 'lines',
         lambda n: ('continued.cmd', ('fio --name=t \\\n'
                                      + '  --rw=write \\\n' * n
                                      + '  --size=1g\n').encode())),
    Case('jobs on one command line', _doubling(5000), 'jobs',
         lambda n: ('jobs.cmd', ('fio' + ''.join(
             f' --name=j{k} --rw=write --size=1g' for k in range(n))
             + '\n').encode())),
    Case('[global] lines x jobs', _doubling(5000), 'lines and jobs',
         lambda n: ('global.fio', _global_and_jobs(n).encode())),
    Case('a run of blanks in a command', _doubling(2 * 2**20), 'blanks',
         lambda n: ('blanks.cmd', b'fio --name=t' + b' ' * n
                    + b'--rw=write --size=1g\n')),
    Case('a run of blanks in a job file line', _doubling(2 * 2**20),
         'blanks', lambda n: ('blanks.fio', b'[t]\nsize=1g\nrw=write'
                              + b' ' * n + b'x\n')),
    Case('a run of blanks in a for loop', _doubling(2 * 2**20), 'blanks',
         lambda n: ('loop.sh', b'#!/bin/bash\nfor x in a' + b' ' * n
                    + b'b\ndo\n  fio --name=t --rw=write --size=1g\n'
                    b'done\n')),
    Case('unclosed ${A:- in a script', _doubling(2**20), 'bytes',
         lambda n: ('defaults.sh', b'#!/bin/bash\necho ' + b'${A:-' * (n // 5)
                    + b'\nfio --name=t --rw=write --size=1g\n')),
    Case('OSU headers on one line', _doubling(2 * 2**20), 'bytes',
         lambda n: ('headers.txt', b'# OSU MPI' * (n // 9) + b'\nosu_bw\n')),
    Case('grouped flags taken out (ior -CCC...)', _doubling(512 * KIB),
         'flags', lambda n: ('grouped.cmd', b'srun -N 2 -n 4 ior -w -r -'
                             + b'C' * n + b' -Q 2 -e\n')),
    Case('assignments between commands', _doubling(4000), 'commands',
         lambda n: ('assign.sh', _assignments(n).encode())),
    # issue 46's readers
    Case('IOR script RUNs', _doubling(4000), 'tests',
         lambda n: ('runs.ior', ('IOR START\n' + ''.join(
             f'blockSize={k + 1}m\nRUN\n' for k in range(n))
             + 'IOR STOP\n').encode())),
    Case('ReFrame test classes of one base', _doubling(2000), 'tests',
         lambda n: ('tests.py', _reframe_tests(n).encode())),
    Case('calls of a function that runs its argument', _doubling(4000),
         'calls', lambda n: ('calls.sh', ('#!/bin/bash\nmyrun() {\n'
                                          '  mpirun -np 2 $1\n}\n' + ''.join(
             f'myrun "ior -w -b {k + 1}m"\n' for k in range(n))).encode())),
    Case('a run of blanks after a function\'s head', _doubling(2 * 2**20),
         'blanks', lambda n: ('head.sh', b'#!/bin/bash\nrun() {' + b' ' * n
                              + b'x\nior -w -b 1m -e\n')),
    Case('commands the tool refuses', _doubling(4000), 'commands',
         lambda n: ('refused.sh', ('#!/bin/bash\n'
                                   + 'ior -w -b 1m 2\n' * n
                                   + 'ior -w -b 1m -e\n').encode())),
    Case('array elements over lines', _doubling(40000), 'elements',
         lambda n: ('array.sh', ('#!/bin/bash\nARGS=(\n'
                                 + '  --rw=write  # a comment\n' * n
                                 + ')\nfio --name=t --size=1g "${ARGS[@]}"'
                                 '\n').encode())),
    Case('Markdown blocks of a console transcript', _doubling(4000),
         'blocks', lambda n: ('guide.md', ''.join(
             f'Run {k}:\n\n```console\n$ fio --name=j{k} --rw=write '
             f'--size=1g\nj{k}: (groupid=0, jobs=1)\n```\n\n'
             for k in range(n)).encode())),
    Case('YAML steps (run: |)', _doubling(4000), 'steps',
         lambda n: ('steps.yaml', ''.join(
             f'step{k}:\n  run: |\n    fio --name=j{k} --rw=write '
             f'--size=1g\n' for k in range(n)).encode())),
    Case('YAML aliases nine times each level', _doubling(80), 'levels',
         lambda n: ('aliases.yaml', _alias_levels(n).encode())),
    Case('variables set from a loop\'s, then used', _doubling(4000),
         'commands', lambda n: ('derived.sh', ('#!/bin/bash\nfor n in 1 2; '
                                               'do\n' + ''.join(
             f'  B{k}=$((n*{k + 1}))m\n  ior -w -e -b $B{k}\n'
             for k in range(n)) + 'done\n').encode())),
    Case('indirect expansions on a line', _doubling(2**20), 'bytes',
         lambda n: ('indirect.sh', (
             '#!/bin/bash\nC=fio\nN=C\n' + '${!N} ' * (n // 6)
             + '--name=t --rw=write --size=1g\n').encode())),
    Case('abbreviated fio options on one line', _doubling(2**20), 'bytes',
         lambda n: ('prefixes.cmd', (
             'fio --name=t --size=1g' + ' --nrf=1' * (n // 8)
             + '\n').encode())),
    Case('fio jobs in a ConfigMap\'s strings', _doubling(2000), 'jobs',
         lambda n: ('configmap.yaml', ('data:\n' + ''.join(
             f'  job{k}.fio: |\n    [j{k}]\n    rw=write\n    size=1g\n'
             f'    direct=1\n' for k in range(n))).encode())),
    Case('branches false on the script\'s values', _doubling(4000),
         'branches', lambda n: ('branches.sh', ('#!/bin/bash\nM=0\n' + ''.join(
             f'if [ "$M" = "1" ]; then\n  if [ -x x ]; then\n'
             f'    ior -w -b {k + 1}m\n  fi\nelse\n  ior -w -e -b 1m\nfi\n'
             for k in range(n))).encode())),
    Case('a ReFrame parameter of many values', _doubling(4000), 'values',
         lambda n: ('params.py', ('import reframe as rfm\n\n'
                                  '@rfm.simple_test\nclass T(rfm.'
                                  'RunOnlyRegressionTest):\n'
                                  '    executable = "fio"\n    mode = '
                                  'parameter([' + ', '.join(
                                      f'"m{k}"' for k in range(n))
                                  + '])\n    executable_opts = '
                                  '["--name=t", "--size=1g"]\n'
                                  '    def hook(self):\n        self.'
                                  'executable_opts += [f"--rw={self.mode}"]'
                                  '\n').encode())),
    Case('command lines a document wrapped', _doubling(4000), 'lines',
         lambda n: ('wrapped.txt', ('fio --name=t --size=1g --rw\n'
                                    + 'write --bs\n' * n
                                    + '4k\n').encode())),
    Case('command strings run by eval in a function', _doubling(4000),
         'calls', lambda n: ('eval.sh', ('#!/bin/bash\nrun() {\n'
                                         '  L="${2}"\n  CMD="${L} osu_bw '
                                         '-m 8:8 &> log"\n  eval $CMD\n}\n'
                                         + ''.join(f'run {k} "srun -n 2"\n'
                                                   for k in range(n)))
                                        .encode())),
    Case('fio jobs reading what earlier jobs wrote', _doubling(2000), 'jobs',
         lambda n: ('across.fio', ('[global]\nfilename=/scratch/f\n'
                                   'size=1g\n' + ''.join(
             f'[w{k}]\nrw=write\n[r{k}]\nstonewall\nrw=read\n'
             for k in range(n))).encode())),
    Case('YAML documents in block strings', _doubling(2000), 'specs',
         lambda n: ('specs.yaml', ''.join(
             f'b{k}:\n  spec: |\n    spec: |\n      c:\n      - image: x\n'
             f'        command: [mpirun, -np, "2", osu_bw]\n'
             for k in range(n)).encode())),
    Case('placeholders left open on a line', _doubling(2**20), 'bytes',
         lambda n: ('open.txt', ("fio --name=t --rw=write --size=1g "
                                 "--description='" + '<a b ' * (n // 5)
                                 + "'\n").encode())),
    Case('the IO500 of 2017 run with options', _doubling(600), 'runs',
         lambda n: ('io500app.sh', ('#!/bin/bash\n' + ''.join(
             f'srun io500 -w /lus/d{k} -e "-F -t 1m -b 1g"\n'
             for k in range(n))).encode())),
    Case('a Dockerfile of many instructions', _doubling(4000),
         'instructions', lambda n: ('Dockerfile', ('FROM x\n' + ''.join(
             f'ENV N{k}={k}\nRUN cd /b{k} \\\n    && make\n'
             for k in range(n)) + 'CMD ["mpiexec", "-n", "2", "osu_bw"]\n')
             .encode())),
    Case('containers running shell scripts', _doubling(2000), 'containers',
         lambda n: ('scripts.yaml', ''.join(
             f'c{k}:\n  command: ["/bin/bash", "-c", "fio --name=t{k} '
             f'--rw=write --size=1g"]\n' for k in range(n)).encode())),
    Case('runfabtests.sh lines', _doubling(4000), 'lines',
         _script_of('runfabtests.sh', lambda k: f'runfabtests.sh -t short '
                    f'-C "-c spin" -v -p /b{k} verbs')),
    Case('command strings wrappers run', _doubling(4000), 'lines',
         lambda n: ('wrapped.sh', ('#!/bin/bash\nf()\n{\n'
                                   '    local -r cmd=runfabtests.sh\n'
                                   + ''.join(f'    tp h{k} "$cmd -v -t short '
                                             f'verbs a b"\n'
                                             for k in range(n))
                                   + '}\n').encode())),
    Case('flux run lines', _doubling(4000), 'lines',
         _script_of('flux.sh', lambda k: f'flux run -N2 -n{k + 2} -o '
                    f'cpu-affinity=per-task ./osu_bw')),
    Case('Ansible tasks with loops', _doubling(4000), 'tasks',
         lambda n: ('tasks.yml', ''.join(
             f'- name: t{k}\n  shell: fio --name=t{k} --rw=read '
             f'--size=1g --direct=1\n  with_sequence: count=5\n'
             for k in range(n)).encode())),
    Case('while loops that count', _doubling(2000), 'loops',
         _script_of('while.sh', lambda k: f'i=1; while [ $i -le 5 ]; do '
                    f'ior -w -e -o /s/f{k}; i=$((i+1)); done')),
    Case('io500 runs of a here-document', _doubling(600), 'runs',
         lambda n: ('io500.sh', ('#!/bin/bash\ncat > c.ini << EOF\n'
                                 '[global]\ndatadir = /scratch\nEOF\n'
                                 + 'mpirun -np 4 ./io500 c.ini\n' * n)
                    .encode())),
]


def _alias_levels(count):
    '''A YAML alias bomb: each level a list of nine aliases of the one
    before (9**count leaves if expanded).'''
    lines = ['script:', '  a0: &a0 ["fio --name=t --rw=write --size=1g"]']
    for level in range(1, count + 1):
        aliases = ', '.join([f'*a{level - 1}'] * 9)
        lines.append(f'  a{level}: &a{level} [{aliases}]')
    return '\n'.join(lines) + '\n'


def _reframe_tests(count):
    return ("import reframe as rfm\nclass B(rfm.RunOnlyRegressionTest):\n"
            "    executable = 'ior'\n    executable_opts = ['-w', '-r']\n"
            + ''.join(f'@rfm.simple_test\nclass T{k}(B):\n'
                      f'    executable_opts = [\'-b\', \'{k + 1}m\']\n'
                      for k in range(count)))
