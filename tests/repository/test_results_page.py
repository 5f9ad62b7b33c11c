'''The measured figures live in docs/results.md, each saying how it is
reproduced; the README keeps the door (what, two commands, the table,
where to go) and points there.'''

import os
import re

from microbench import paths

RESULTS = os.path.join(paths.ROOT, 'docs', 'results.md')
README = os.path.join(paths.ROOT, 'README.md')

#: A measured figure: a number with a unit the suite measures in
FIGURE = re.compile(r'\b\d+(\.\d+)? ?(MiB/s|GiB/s|KiB|MiB|GiB|min|minutes|'
                    r'seconds|us|%)(?![\w/])')

#: How a figure is reproduced: a link to a page, or a command
REPRODUCED = re.compile(r'\]\((?!https?:)[^)]+\.md[^)]*\)|`((bench|ci)'
                        r'/\w|microbench )')


def bullets(text):
    '''The top-level bullets of ``text`` (``- `` at the line's start, with
    their continuation lines), and the heading above each.'''
    out, heading, current = [], '', None
    for line in text.splitlines():
        if line.startswith('#'):
            heading = line
        if line.startswith('- '):
            current = [heading, line]
            out.append(current)
        elif current and line.startswith('  '):
            current[1] += ' ' + line.strip()
        else:
            current = None
    return [(head, body) for head, body in out]


def unreproduced(text):
    '''The bullets of ``text`` with a figure and no way to reproduce it:
    neither in the bullet nor in the paragraph of its section.'''
    sections = re.split(r'\n(?=## )', text)
    out = []
    for section in sections:
        said = bool(REPRODUCED.search(section.split('\n- ')[0]))
        for _, body in bullets(section):
            if FIGURE.search(body) and not (said or REPRODUCED.search(body)):
                out.append(body[:80])
    return out


def test_every_measured_figure_says_how_it_is_reproduced():
    with open(RESULTS, encoding='utf-8') as fp:
        assert unreproduced(fp.read()) == []


def test_the_check_finds_a_figure_said_without_its_command():
    text = ('# x\n\n## y\n\nNo command here.\n\n- **A**: 12.5 MiB/s on a '
            'disk.\n- **B**: 3 min (`microbench ab x --a A --b B`).\n')
    assert unreproduced(text) == ['- **A**: 12.5 MiB/s on a disk.']


def test_the_readme_keeps_the_door_and_points_to_the_figures():
    with open(README, encoding='utf-8') as fp:
        text = fp.read()
    assert '(docs/results.md)' in text
    start = text.index('## Measured on the development VM')
    section = text[start:text.index('\n## ', start + 3)]
    assert not FIGURE.search(section.replace('2 cores', ''))
