'''Files the verdicts write as a reviewable diff (references, limits,
acknowledgements): the diff printed first, the file written only with
``--write``.'''

import difflib
import os
import sys

from microbench import paths, references


def read(path):
    '''The text of ``path``, empty where there is none.'''
    if not os.path.exists(path):
        return ''
    with open(path, encoding='utf-8') as fp:
        return fp.read()


def name_of(target):
    '''``target`` as the diff names it: relative to the checkout where it
    is in it.'''
    name = os.path.relpath(target, paths.ROOT)
    return target if name.startswith('..') else name


def diff(target, text):
    '''The unified diff that makes ``target`` hold ``text``.'''
    name = name_of(target)
    lhs, rhs = ((f'a/{name}', f'b/{name}') if name != target
                else (target, target))
    return difflib.unified_diff(read(target).splitlines(True),
                                text.splitlines(True), lhs, rhs)


def show(target, text, write, written):
    '''Print the diff that makes ``target`` hold ``text``; with ``write``
    make it so (atomically) and say ``written: <name> (<written>)`` on
    stderr, else say that nothing was written.'''
    sys.stdout.writelines(diff(target, text))
    if write:
        references.write_if_changed(target, text)
        print(f'written: {name_of(target)} ({written})', file=sys.stderr)
    else:
        print('(a diff: nothing written; --write applies it)',
              file=sys.stderr)
