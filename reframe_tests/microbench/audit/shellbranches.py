'''A script's ``if`` whose test is false on the values the script sets
(``IOR_MDTEST="${IOR_MDTEST:-0}"`` then ``if [ "$IOR_MDTEST" = "1" ]``):
its branch does not run as the script is written, and the commands in it
are not judged.  Only string comparisons (``=``, ``==``, ``!=``) of
values the script sets are decided, joined by ``&&``; anything else (a
loop's variable, a file test, ``||``, a value the script does not set)
leaves the branch to run, as before.'''

import re

from microbench.audit import shellvars, shellwords

#: An ``if`` line that does not close on itself
_IF = re.compile(r'^if\b(?!.*\bfi\s*;?\s*$)')
#: A test expression's inside: ``[ ... ]`` or ``[[ ... ]]``
_TEST = re.compile(r'\[\[\s(.*?)\s\]\]|(?<!\S)\[\s(.*?)\s\](?!\S)')


def opens(stripped):
    '''Whether a line opens an ``if`` block.'''
    return _IF.match(stripped) is not None


def is_false(stripped, env):
    '''Whether an ``if`` line's condition is false on ``env``'s values
    (a decided comparison, no ``||``).'''
    head = stripped[2:].split('; then')[0].split(';then')[0]
    if '||' in head or ' -o ' in head:
        return False
    tests = list(_TEST.finditer(head))
    return any(_compares_false(test[1] or test[2], env) for test in tests)


def _compares_false(expression, env):
    text = shellvars.expand(expression, env)
    if '$' in text or '`' in text:
        return False                     # a value the script does not set
    try:
        words = shellwords.split(text)
    except ValueError:
        return False
    if len(words) != 3 or words[1] not in ('=', '==', '!='):
        return False
    equal = words[0] == words[2]
    return not equal if words[1] != '!=' else equal


class DeadBranch:
    '''The lines of a false ``if``'s branch, read up to its ``else``,
    ``elif`` (whose condition is not decided: its branch runs) or
    ``fi``.'''

    def __init__(self):
        self.depth = 0            # ifs opened inside the branch
        self.closed = False       # the if ended at its fi

    def skips(self, stripped):
        '''Whether a line is in the dead branch (False: the branch is over
        and this line is read; :attr:`closed` where it was the ``fi``).'''
        if opens(stripped):
            self.depth += 1
            return True
        if re.match(r'^fi\b', stripped):
            if self.depth == 0:
                self.closed = True
                return False
            self.depth -= 1
            return True
        if self.depth == 0 and re.match(r'^(else|elif)\b', stripped):
            return False
        return True
