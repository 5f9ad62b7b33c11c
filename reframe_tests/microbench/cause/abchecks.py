'''Which checks ``microbench ab`` can run, read from the check files, never
run: each ``@rfm.simple_test`` class of ``reframe_tests/*.py`` and what it
reads, a rounds fixture of its own (a variant check: an A/B pairs its
variants' rounds), a pitfall's rounds (a gap: it comes with its pitfall),
or neither (a sweep that is a job of its own, ``ior_scaling``).

The files are parsed (:mod:`ast`), not imported: the command line never
loads ReFrame's pipeline, and a name typed wrong is said in one line with
the closest names (:func:`chosen`).
'''

import ast
import difflib
import os

from microbench import paths

#: The largest check file read
LONGEST = 1 << 20

#: What a check reads: its own rounds fixture, a pitfall's, or neither
VARIANT, GAP, OTHER = 'variant', 'gap', 'other'


class CheckError(ValueError):
    '''A check an A/B cannot run (one line).'''


def _decorated(node):
    '''Whether class ``node`` is decorated ``@rfm.simple_test``.'''
    for decorator in node.decorator_list:
        name = (decorator.attr if isinstance(decorator, ast.Attribute)
                else getattr(decorator, 'id', ''))
        if name == 'simple_test':
            return True
    return False


def _reads(node):
    '''(kind, the fixture or pitfall it names) of class ``node``'s
    ``rounds = fixture(X, ...)`` or ``rounds = rounds_of(X)``.'''
    for item in node.body:
        if not (isinstance(item, ast.Assign) and isinstance(item.value,
                                                            ast.Call)):
            continue
        if not any(getattr(target, 'id', '') == 'rounds'
                   for target in item.targets):
            continue
        call = item.value
        func = getattr(call.func, 'id', '')
        first = getattr(call.args[0], 'id', '') if call.args else ''
        if func == 'fixture':
            return VARIANT, first
        if func == 'rounds_of':
            return GAP, first
    return OTHER, ''


def catalogue(directory=paths.CHECKS):
    '''``{check name: (kind, fixture or pitfall, file)}`` of every check of
    ``directory``.

    :raises CheckError: a check file that is not Python (one line).'''
    found = {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith('.py'):
            continue
        path = os.path.join(directory, name)
        with open(path, encoding='utf-8', errors='replace') as fp:
            text = fp.read(LONGEST + 1)
        if len(text) > LONGEST:
            raise CheckError(f'{path}: more than {LONGEST} characters: not '
                             f'a check file')
        try:
            tree = ast.parse(text, path)
        except (SyntaxError, ValueError) as err:
            raise CheckError(f'{path}: not Python ({err})') from None
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and _decorated(node):
                found[node.name] = (*_reads(node), path)
    return found


def chosen(names, found=None):
    '''The checks ``names`` an A/B runs, each once, in order.

    :raises CheckError: a name that is no check (the closest ones said), a
        gap (its pitfall named), a check that reads no rounds fixture of
        its own.'''
    found = catalogue() if found is None else found
    if not names:
        raise CheckError('no check named (microbench ab CHECK... --a STACK '
                         '--b STACK)')
    out = []
    for name in names:
        if name not in found:
            near = difflib.get_close_matches(name, list(found), n=3,
                                             cutoff=0.6)
            said = f'; did you mean {" or ".join(near)}?' if near else ''
            raise CheckError(f'no check {name!r} in {paths.CHECKS}{said}')
        kind, read, path = found[name]
        if kind == GAP:
            raise CheckError(f'{name} is a gap of {read}: name {read} (its '
                             f'gaps come with it)')
        if kind == OTHER:
            raise CheckError(f'{name} ({os.path.basename(path)}) reads no '
                             f'rounds fixture of variants: an A/B pairs the '
                             f'rounds of one job of variants')
        if name not in out:
            out.append(name)
    return out


def fixtures(names, found=None):
    '''The rounds fixtures of the variant checks ``names``, each once.'''
    found = catalogue() if found is None else found
    return list(dict.fromkeys(found[name][1] for name in names))


def pattern(names):
    '''ReFrame's ``-n`` of exactly these checks and their gaps (a
    variant's own gaps too: ``fio_cache_flags_dontcache_gap``).'''
    return f'^({"|".join(names)})((_[a-z0-9]+)?_gap)?(%|/|$)'
