'''The code blocks of the README and the documentation that show code or
data are held to it.

- ``python``: an excerpt of the repository's code (its lines, in order,
  in one file: the walk-through of a check quotes its file), else run, in a
  child Python in a temporary directory that holds what the snippets read
  (``perflogs/``: the perflogs of a real quick run of ``fio_fallocate``,
  tests/data/perflogs; ``tests/helpers``), with the library on its path;
  it must exit 0.
- ``yaml`` and ``toml``: an excerpt of a file of the repository, verbatim
  or as a part of its parsed mapping (a references file, pyproject.toml);
  a block that elides (``...``) is a sketch of a format, and must parse.
- ``sh`` blocks: tests/repository/test_docs_commands.py; ``text`` blocks
  (outputs) and blocks with no language are not checked.
'''

import os
import shutil
import subprocess
import sys
import tomllib

import pytest
import yaml

from doc_blocks import all_blocks, blocks, read
from microbench import paths

#: Folders of the repository whose files a block may quote
QUOTED = ('reframe_tests', 'systems', 'ci', 'bench', 'spack_envs',
          'pyproject.toml', 'mkdocs.yml')

#: What a run snippet finds in its directory: the perflogs of a real run
PERFLOGS = os.path.join(paths.ROOT, 'tests', 'data', 'perflogs')


def quoted_files(suffixes):
    '''Every file of the repository a block may quote, with one of
    ``suffixes``.'''
    for top in QUOTED:
        path = os.path.join(paths.ROOT, top)
        if os.path.isfile(path):
            yield path
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = [d for d in dirs if d not in ('__pycache__', 'data')]
            for name in files:
                if name.endswith(suffixes):
                    yield os.path.join(folder, name)


def verbatim_in(text, suffixes):
    '''The file of the repository whose lines hold ``text``'s lines in
    order, one after the other; None.'''
    want = [line.rstrip() for line in text.strip('\n').splitlines()]
    for path in quoted_files(suffixes):
        lines = [line.rstrip() for line in read(path).splitlines()]
        for at in range(len(lines) - len(want) + 1):
            if lines[at:at + len(want)] == want:
                return path
    return None


def part_of(small, large):
    '''Whether the mapping ``small`` is a part of ``large``: every key of
    it there, with the same value (mappings compared as parts).'''
    if isinstance(small, dict):
        return isinstance(large, dict) and all(
            key in large and part_of(value, large[key])
            for key, value in small.items())
    return small == large


def parsed_part_of(text, suffixes, load):
    '''The file of the repository whose parsed mapping holds ``text``'s;
    None.'''
    mine = load(text)
    for path in quoted_files(suffixes):
        try:
            theirs = load(read(path))
        except Exception:  # not every file of that kind is data
            continue
        if part_of(mine, theirs):
            return path
    return None


# -- python -----------------------------------------------------------------

def run_snippet(text, tmp_path):
    '''Run ``text`` in a child Python in ``tmp_path``, which holds the
    perflogs of a real run and the tests' helpers; the process.'''
    shutil.copytree(PERFLOGS, tmp_path / 'perflogs')
    (tmp_path / 'tests').mkdir()
    os.symlink(os.path.join(paths.ROOT, 'tests', 'helpers'),
               tmp_path / 'tests' / 'helpers')
    env = {**os.environ, 'PYTHONPATH': paths.CHECKS,
           'RFM_CONFIG_FILES': paths.CONFIG, 'MPLBACKEND': 'Agg'}
    return subprocess.run([sys.executable, '-'], input=text, text=True,
                          capture_output=True, cwd=tmp_path, env=env,
                          timeout=300)


@pytest.mark.parametrize('block', all_blocks('python'), ids=repr)
def test_a_python_block_is_the_codes_or_runs(block, tmp_path):
    if verbatim_in(block.text, ('.py',)):
        return
    proc = run_snippet(block.text, tmp_path)
    assert proc.returncode == 0, (
        f'{block}: neither an excerpt of the code nor a snippet that '
        f'runs: {proc.stderr}')


def test_a_snippet_that_fails_is_found(tmp_path):
    '''The verdicts page's snippet as it was: ``tests`` on the path, where
    perflog.py is in ``tests/helpers``.'''
    broken = ("import sys; sys.path.insert(0, 'tests')\n"
              "import perflog\n"
              "frame = perflog.load('perflogs')\n")
    assert verbatim_in(broken, ('.py',)) is None
    proc = run_snippet(broken, tmp_path)
    assert proc.returncode == 1
    assert "No module named 'perflog'" in proc.stderr


def test_the_perflog_snippet_shows_the_real_runs_figures(tmp_path):
    '''Getting started's snippet prints the median write figure of every
    variant of the real run it reads.'''
    block, = [b for b in all_blocks('python') if b.page == 'docs/start.md']
    proc = run_snippet(block.text, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert 'fio_fallocate %fallocate=default' in proc.stdout
    assert 'fio_fallocate %fallocate=none' in proc.stdout
    assert 'fio-3.33' in proc.stdout


def test_an_excerpt_that_drifted_from_the_code_is_found():
    block = next(b for b in all_blocks('python')
                 if 'witness_syscall' in b.text)
    assert verbatim_in(block.text, ('.py',))
    assert verbatim_in(block.text.replace("'fallocate'", "'fsync'"),
                       ('.py',)) is None


# -- yaml and toml ------------------------------------------------------------

@pytest.mark.parametrize('block', all_blocks('yaml') + all_blocks('toml'),
                         ids=repr)
def test_a_data_block_is_part_of_a_file_of_the_repository(block):
    if block.lang == 'yaml':
        suffixes, load = ('.yaml', '.yml'), yaml.safe_load
    else:
        suffixes, load = ('.toml',), tomllib.loads
    if '...' in block.text:
        assert isinstance(load(block.text), dict), block
        return
    assert verbatim_in(block.text, suffixes) or \
        parsed_part_of(block.text, suffixes, load), \
        f'{block}: no file of the repository holds it'


def test_a_changed_reference_is_no_part_of_the_references():
    block, = [b for b in all_blocks('yaml') if '$index' in b.text]
    assert parsed_part_of(block.text, ('.yaml',), yaml.safe_load)
    changed = block.text.replace('[530,', '[531,')
    assert parsed_part_of(changed, ('.yaml',), yaml.safe_load) is None


def test_blocks_are_read_as_markdown_reads_its_fences(tmp_path):
    page = tmp_path / 'page.md'
    page.write_text('Text\n\n- an item:\n\n  ```python\n  x = 1\n'
                    '      y = 2\n  ```\n\n````sh\n```\nls\n````\n')
    found = blocks(str(page))
    assert [(b.lang, b.text) for b in found] == [
        ('python', 'x = 1\n    y = 2'), ('sh', '```\nls')]
    page.write_text('```yaml\na: 1\n')
    with pytest.raises(AssertionError, match='never closes'):
        blocks(str(page))
