'''The fenced code blocks of the README and the documentation pages, as
the tests of the documentation read them (tests/repository/: the
snippets, test_docs_snippets.py; the shell commands,
test_docs_commands.py).'''

import glob
import os
import re

from microbench import paths

#: The Markdown files whose blocks are held: the README and every page
PAGES = ['README.md', *sorted(
    os.path.relpath(p, paths.ROOT) for p in
    glob.glob(os.path.join(paths.ROOT, 'docs', '**', '*.md'),
              recursive=True))]


class Block:
    '''A fenced code block: its page, the line of its fence, its
    language and its text (the fence's indentation removed).'''

    def __init__(self, page, line, lang, text):
        self.page, self.line, self.lang, self.text = page, line, lang, text

    def __repr__(self):
        return f'{self.page}:{self.line}'


def blocks(page):
    '''Every fenced block of ``page`` (relative to the repository).'''
    found, fence = [], None
    with open(os.path.join(paths.ROOT, page), encoding='utf-8') as fp:
        for number, line in enumerate(fp, 1):
            line = line.rstrip('\n')
            match = re.fullmatch(r'(\s*)(`{3,})(\S*)\s*', line)
            if fence is None and match:
                indent, fence, lang, start, text = (
                    match[1], match[2], match[3], number, [])
            elif fence is not None and line.strip() == fence:
                found.append(Block(page, start, lang, '\n'.join(text)))
                fence = None
            elif fence is not None:
                text.append(line[len(indent):] if line.startswith(indent)
                            else line)
    assert fence is None, f'{page}: a block opened at line {start} never ' \
                          f'closes'
    return found


def all_blocks(lang):
    return [block for page in PAGES for block in blocks(page)
            if block.lang == lang]


def read(path):
    with open(path, encoding='utf-8') as fp:
        return fp.read()
