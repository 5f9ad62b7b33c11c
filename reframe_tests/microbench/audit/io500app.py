'''The IO500 of 2017, VI4IO's ``io500-app``: one C program run with
options, not a configuration file (``io500 -w WORKDIR -r RESULTS -e "-F
-t 1m -b 128g" ...``; its ``src/io500-options.c`` and
``src/io500-functions.c`` @ 599fb76).  Its phases, in the order its
``io500-main.c`` runs them, are the IOR and mdtest commands it builds:

- ior_easy: ``ior -k -w`` (then ``-r``) ``-a API -D STONEWALL -o
  WORKDIR/ior_easy/file`` and ``-e``'s options (``-F -t 1m -b 1t`` by
  default): no ``-C``, no ``-e``;
- ior_hard: ``ior -C -Q 1 -g -G 27 -k -e -t 47008 -b 47008 -w`` (then
  ``-R``) ``-s SEGMENTS`` and ``-E``'s options;
- mdtest_easy: ``mdtest -F -C`` (then ``-T``) ``-n FILES -d
  WORKDIR/mdtest_easy`` and ``-m``'s options (``-u -L``): no ``-N``;
- mdtest_hard: ``mdtest -w 3900 -e 3900 -t -F -C`` (then ``-T``, ``-E``).

Its API is MPIIO for the bandwidth phases unless ``-a`` says otherwise
(POSIX for metadata, ``-A``).
'''

from microbench.audit import getopt, network, shellwords
from microbench.audit.batch import Command
from microbench.audit.findings import Where

#: Its getopt string (io500-options.c)
OPTSTRING = 'a:A:e:E:hvw:f:F:s:SI:ClLr:m:'

#: Its phases in the order it runs them: (name, tool, its words)
_PHASES = (
    ('ior-easy-write', 'ior -k -w -a {a} -D {s} -o {w}/ior_easy/file {e}'),
    ('mdtest-easy-write', 'mdtest -F -C -a {A} -n {f} -W {s} '
                          '-d {w}/mdtest_easy {m}'),
    ('ior-hard-write', 'ior -C -Q 1 -g -G 27 -k -e -t 47008 -b 47008 -w '
                       '-a {a} -D {s} -s {I} -o {w}/ior_hard/file {E}'),
    ('mdtest-hard-write', 'mdtest -w 3900 -e 3900 -t -F -C -a {A} -n {F} '
                          '-W {s} -d {w}/mdtest_hard'),
    ('ior-easy-read', 'ior -k -r -a {a} -o {w}/ior_easy/file {e}'),
    ('mdtest-hard-stat', 'mdtest -w 3900 -e 3900 -t -F -T -a {A} -n {F} '
                         '-d {w}/mdtest_hard'),
    ('ior-hard-read', 'ior -C -Q 1 -g -G 27 -k -e -t 47008 -b 47008 -R '
                      '-a {a} -s {I} -o {w}/ior_hard/file {E}'),
    ('mdtest-hard-read', 'mdtest -w 3900 -e 3900 -t -F -E -a {A} -n {F} '
                         '-d {w}/mdtest_hard'),
    ('mdtest-easy-stat', 'mdtest -F -T -a {A} -n {f} -d {w}/mdtest_easy '
                         '{m}'),
)

#: Its defaults (io500_parse_args)
_DEFAULTS = {'a': 'MPIIO', 'A': 'POSIX', 'w': './io500-run', 'e':
             '-F -t 1m -b 1t', 'E': '', 'm': '-u -L', 'f': '100000000',
             'F': '100000000', 's': '300', 'I': '100000000'}


def is_app(argv):
    '''Whether an ``io500`` command is the 2017 app's: options first
    (``-w DIR``), no configuration file.'''
    return len(argv) > 1 and argv[1].startswith('-') and not \
        argv[1].startswith('--')


def phases(argv, where):
    '''[(phase, :class:`~.batch.Command`)] of the app's run, each where
    the script runs it; ``-C`` (clean up only) runs none.'''
    given, _ = getopt.parse(argv, network.optstring_table(OPTSTRING, {}),
                            'io500', where, positional=True)
    said = {**_DEFAULTS, **{o.name[1]: o.value for o in given if o.value}}
    if getopt.last(given, '-C') is not None:
        return []
    out = []
    for phase, template in _PHASES:
        text = 'mpirun ' + template.format(**said)   # the launcher's place
        try:
            words = shellwords.split(text)
        except ValueError:          # a quote -e's options leave open
            words = text.split()
        out.append((phase, Command(Where(where.file, where.line,
                                         f'[{phase}] {" ".join(words)}'),
                                   words, 1, None, {})))
    return out
