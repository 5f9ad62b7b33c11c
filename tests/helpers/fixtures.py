'''Real tool outputs kept under tests/data, read as the tool printed them.'''

import os

DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), 'data')


def path(name):
    return os.path.join(DATA, name)


def text(name):
    '''The output, without the ``# cmd:`` / ``# rc=`` lines added on saving.'''
    with open(path(name)) as fp:
        lines = fp.read().splitlines(keepends=True)

    return ''.join(ln for ln in lines
                   if not ln.startswith(('# cmd:', '# rc=')))


def section(name, title):
    '''One ``## ---- title ... ----`` section of a composite output.'''
    out, inside = [], False
    for line in text(name).splitlines(keepends=True):
        if line.startswith('## ----'):
            inside = line.startswith(f'## ---- {title}')
        elif inside:
            out.append(line)

    return ''.join(out)


def command(name):
    '''The command line saved in the ``# cmd:`` line of output ``name``.'''
    with open(path(name)) as fp:
        first = fp.readline()

    assert first.startswith('# cmd: '), f'{name} has no "# cmd:" line'
    return first[len('# cmd: '):].strip()


def fio_options(name):
    '''The job options of the fio run that wrote ``name`` (its saved
    command line, fio's ``--`` words: a wrapper's before fio are not
    fio's), as the suite's checks give them: flags are None.'''
    options = {}
    for word in command(name).split()[1:]:
        if not word.startswith('--'):
            continue

        key, sep, value = word.removeprefix('--').partition('=')
        if key not in ('output-format', 'output'):
            options[key] = value if sep else None

    return options
