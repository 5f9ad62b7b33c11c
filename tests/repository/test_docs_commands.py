'''The shell blocks (``sh``) of the README and the documentation name
commands and options that exist.

The blocks are not run: they install packages as root, start a Slurm
cluster, mount file systems, need a facility's scheduler or a Spack tree,
or run benchmarks for minutes.  They are parsed instead.  Every
``microbench`` command is parsed by microbench's own argument parser (its
subcommand, its options and their values); every ``reframe`` command's
options are options ``reframe --help`` names, its ``-S`` variables are
variables of the suite's tests (or of the named test), its ``--mode`` is a
mode of reframe_tests/modes.yaml, its ``--system`` a partition of systems/,
its ``-n`` and ``-x`` patterns name a test; ``microbench audit --measure``'s
``-S`` variables exist too; every repository script a block runs, and every
repository path it names, exists.  Placeholders (``<prefix>``,
``SYS:PART``, ``$d``) are not checked.  A block of commands must say it is
``sh``.
'''

import contextlib
import importlib
import inspect
import io
import os
import re
import shlex

import pytest
import yaml
from reframe.core.pipeline import RegressionTest

import project
from doc_blocks import PAGES, all_blocks, blocks, read
from microbench import cli, paths

#: Separators of the commands of one shell line (``<`` and ``>`` are not:
#: the documents' placeholders are ``<...>``)
SEPARATORS = {'&&', '||', ';', '|', '&', '(', ')', ';;'}

#: A line that runs microbench or reframe (not a line of their output)
COMMAND_LINE = re.compile(
    r'^(\.venv/bin/)?(microbench|reframe) +(-|[a-z-]+( |$))', re.M)

#: Shell words that start a command without being one
KEYWORDS = {'do', 'then', 'else', 'time', 'exec', 'eval', '!', '{'}


def logical_lines(text):
    '''The shell lines of a block: continuation lines joined, the lines
    of a here-document left out.'''
    lines, here, pending = [], None, ''
    for line in text.splitlines():
        if here is not None:
            if line.strip() == here:
                here = None
            continue
        if line.endswith('\\'):
            pending += line[:-1] + ' '
            continue
        line, pending = pending + line, ''
        match = re.search(r"<<-?\s*'?(\w+)'?", line)
        if match:
            here = match[1]
        lines.append(line)
    return lines


def commands(line):
    '''The commands of one shell line, each as its words: comments
    dropped, split at ``&&``, ``;``, ``|`` and the like, the variable
    assignments and shell keywords before a command left out.'''
    lexer = shlex.shlex(line, posix=True, punctuation_chars='();|&')
    lexer.whitespace_split = True
    lexer.commenters = '#'
    found, words = [], []
    for token in lexer:
        if token in SEPARATORS:
            found.append(words)
            words = []
        else:
            words.append(token)
    found.append(words)
    out = []
    for words in found:
        while words and (words[0] in KEYWORDS
                         or re.fullmatch(r'\w+=.*', words[0])):
            words = words[1:]
        if words:
            out.append(words)
    return out


def program(words):
    '''``microbench``, ``reframe`` or None: what the command runs.'''
    name = os.path.basename(words[0])
    return name if name in ('microbench', 'reframe') else None


def placeholder(word):
    return bool(re.search(r'[<>$*]|\bSYS\b|\bPART\b', word))


def repository_path(word):
    '''The repository path ``word`` names (its first folder is one of the
    repository's), or None.'''
    if placeholder(word) or not re.fullmatch(r'[\w.-]+(/[\w.-]+)+/?', word):
        return None
    top = word.split('/')[0]
    if top in ('.venv', 'site', 'perflogs') or \
            not os.path.isdir(os.path.join(paths.ROOT, top)):
        return None
    return word


def shell_commands():
    '''(block, words) of every command of every ``sh`` block (a line the
    shell lexer cannot read is kept whole, as one word, to be failed where
    it runs microbench or reframe).'''
    out = []
    for block in all_blocks('sh'):
        for line in logical_lines(block.text):
            try:
                out += [(block, words) for words in commands(line)]
            except ValueError:
                if re.search(r'(^|[\s/])(microbench|reframe)\s', line):
                    out.append((block, [line]))
    return out


def parses(parser, argv):
    '''The argparse error ``parser`` gives ``argv``, or None.'''
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            parser.parse_args(argv)
    except SystemExit:
        return err.getvalue().strip().splitlines()[-1]
    return None


@pytest.fixture(scope='module')
def reframe_options():
    proc = project.reframe('--help')
    assert proc.returncode == 0, proc.stderr
    return set(re.findall(r'(?<![\w-])(--?[A-Za-z][\w-]*)', proc.stdout))


def test_it_sees_the_commands_of_every_sh_block():
    found = shell_commands()
    runs = {program(words) for _, words in found}
    assert {'microbench', 'reframe'} <= runs
    assert all(len(words) > 1 or program(words) is None
               for _, words in found if program(words))
    assert len(all_blocks('sh')) >= 25


def test_every_microbench_command_parses():
    parser = cli.parser()
    bad = []
    for block, words in shell_commands():
        if program(words) == 'microbench':
            error = parses(parser, words[1:])
            if error:
                bad.append(f'{block}: {shlex.join(words)}: {error}')
    assert bad == []


def test_a_misspelt_microbench_option_is_found():
    parser = cli.parser()
    assert parses(parser, ['compare', '--last', '--json', 'v.json']) is None
    assert 'unrecognized arguments: --jsn' in parses(
        parser, ['compare', '--last', '--jsn', 'v.json'])
    assert 'invalid choice' in parses(parser, ['comapre', '--last'])


def classes_by_name():
    out = {}
    for name in sorted(os.listdir(paths.CHECKS)):
        if name.endswith('.py'):
            module = importlib.import_module(name[:-3])
            out.update((n, c) for n, c in vars(module).items()
                       if inspect.isclass(c) and issubclass(c, RegressionTest)
                       and c.__module__ == module.__name__)
    return out


def option_values(words, options):
    '''The values given to any of ``options`` in ``words``.'''
    out = []
    for at, word in enumerate(words):
        for option in options:
            if word == option and at + 1 < len(words):
                out.append(words[at + 1])
            elif option.startswith('--') and word.startswith(option + '='):
                out.append(word.split('=', 1)[1])
    return out


def reframe_problems(words, known, classes):
    '''What is wrong with one ``reframe`` command: an option ReFrame does
    not have, a variable no test has, a mode, partition or test name that
    does not exist.'''
    problems = []
    for word in words[1:]:
        name = word.split('=', 1)[0]
        if word.startswith('-') and name not in known:
            problems.append(f'no option {name}')
    for setting in option_values(words, ['-S']):
        problems += variable_problems(setting, classes)
    modes = yaml.safe_load(read(paths.MODES))
    problems += [f'no mode {m}' for m in option_values(words, ['--mode'])
                 if m not in modes]
    partitions = project.partitions()
    systems = {name.split(':')[0] for name in partitions}
    problems += [f'no system or partition {s}'
                 for s in option_values(words, ['--system'])
                 if not placeholder(s) and s not in partitions
                 and s not in systems]
    for pattern in option_values(words, ['-n', '-x']):
        try:
            name = re.compile(pattern.split('%')[0])
        except re.error as err:
            problems.append(f'-n {pattern}: {err}')
            continue
        if not any(name.search(test) for test in classes):
            problems.append(f'-n {pattern} names no test')
    return problems


def variable_problems(setting, classes):
    '''What is wrong with one ``-S [TEST.]VAR=VALUE``.'''
    if '=' not in setting:
        return [f'-S {setting}: no =']
    target = setting.split('=', 1)[0]
    test, _, name = target.rpartition('.')
    if test:
        if test not in classes:
            return [f'-S {setting}: no test {test}']
        have = classes[test].var_space
        return [] if name in have else [f'-S {setting}: {test} has no {name}']
    if any(name in cls.var_space for cls in classes.values()):
        return []
    return [f'-S {setting}: no test has a variable {name}']


def test_every_reframe_command_names_what_exists(reframe_options):
    classes = classes_by_name()
    bad = []
    for block, words in shell_commands():
        if program(words) == 'reframe':
            bad += [f'{block}: {shlex.join(words)}: {problem}'
                    for problem in reframe_problems(words, reframe_options,
                                                    classes)]
    assert bad == []


def test_the_variables_of_microbench_audit_measure_exist():
    '''``microbench audit --measure -S ...`` hands its settings to
    ReFrame.'''
    classes = classes_by_name()
    bad = []
    for block, words in shell_commands():
        if program(words) == 'microbench' and '--measure' in words:
            for setting in option_values(words, ['-S']):
                bad += [f'{block}: {problem}' for problem in
                        variable_problems(setting, classes)]
    assert bad == []


def test_a_wrong_reframe_command_is_found(reframe_options):
    classes = classes_by_name()
    good = ['reframe', '-c', 'reframe_tests', '-r', '--mode', 'quick', '-n',
            '^fio_fallocate', '-S', 'fio_fallocate_rounds.file_size=8g',
            '--system', 'slurm_cluster:nvme']
    assert reframe_problems(good, reframe_options, classes) == []
    for right, wrong, problem in (
            ('quick', 'quik', 'no mode quik'),
            ('^fio_fallocate', '^fio_falocate', '-n ^fio_falocate names'),
            ('fio_fallocate_rounds.file_size=8g',
             'fio_fallocate_rounds.file_sise=8g', 'has no file_sise'),
            ('slurm_cluster:nvme', 'slurm_cluster:nvm',
             'no system or partition slurm_cluster:nvm'),
            ('-r', '--rn', 'no option --rn')):
        words = [wrong if word == right else word for word in good]
        found = reframe_problems(words, reframe_options, classes)
        assert any(problem in said for said in found), (wrong, found)


def test_every_repository_script_and_path_a_block_names_exists():
    bad = []
    for block, words in shell_commands():
        if words[0].startswith(('ci/', 'bench/', 'docs/')) and \
                not os.access(os.path.join(paths.ROOT, words[0]), os.X_OK):
            bad.append(f'{block}: {words[0]} is no script of the repository')
        for word in words[1:]:
            path = repository_path(word)
            if path and not os.path.exists(os.path.join(paths.ROOT, path)):
                bad.append(f'{block}: {path} does not exist')
    assert bad == []


def test_a_block_that_runs_a_command_is_marked_sh():
    '''A block of commands with no language would escape the checks
    above (a line of output, ``microbench compare: error: ...``, is no
    command).'''
    bad = [block for page in PAGES for block in blocks(page)
           if block.lang == '' and re.search(COMMAND_LINE, block.text)]
    assert bad == []
    assert re.search(COMMAND_LINE, 'reframe -c reframe_tests -r')
    assert re.search(COMMAND_LINE, '.venv/bin/microbench compare --last')
    assert not re.search(COMMAND_LINE, 'microbench compare: error: no')


def test_the_lexer_splits_what_the_shell_does():
    assert commands("A=1 reframe -r -n 'x y' && microbench compare --last "
                    "# a comment") == [['reframe', '-r', '-n', 'x y'],
                                       ['microbench', 'compare', '--last']]
    assert commands('for n in 1 2; do reframe -r; done') == [
        ['for', 'n', 'in', '1', '2'], ['reframe', '-r'], ['done']]
    assert logical_lines('reframe -r \\\n    -n x\ncat <<EOT\nreframe -q\n'
                         'EOT\nls') == ['reframe -r      -n x', 'cat <<EOT',
                                        'ls']
