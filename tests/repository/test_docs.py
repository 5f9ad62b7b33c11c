'''The documentation site: its reference pages are the code's (made by
docs/generate.py, never by hand: a stale one fails here), and the whole
site builds with MkDocs in strict mode (a broken link, a page missing from
the navigation or any warning fails) into plain static files that open
from disk.'''

import os
import re
import shutil
import subprocess
import sys

import pytest

from microbench import paths

GENERATE = os.path.join(paths.ROOT, 'docs', 'generate.py')
MKDOCS = shutil.which('mkdocs', path=os.path.dirname(sys.executable))


def _env():
    return {**os.environ, 'RFM_CONFIG_FILES': paths.CONFIG}


def test_the_generated_pages_are_the_codes():
    proc = subprocess.run([sys.executable, GENERATE, '--check'],
                          capture_output=True, text=True, timeout=600,
                          env=_env(), cwd=paths.ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_stale_page_is_found(tmp_path):
    '''A page changed by hand is stale.'''
    pages = tmp_path / 'reference'
    shutil.copytree(os.path.join(paths.ROOT, 'docs', 'reference'), pages)
    fields = pages / 'fields.md'
    fields.write_text(fields.read_text().replace('the benchmark', 'a tool'))
    proc = subprocess.run([sys.executable, GENERATE, '--check', '--into',
                           str(pages)], capture_output=True, text=True,
                          timeout=600, env=_env(), cwd=paths.ROOT)
    assert proc.returncode == 1
    assert proc.stderr == f'stale: {fields}: run docs/generate.py\n'


def test_every_variable_field_and_subcommand_is_on_its_page():
    from microbench import fields
    from microbench.cli import COMMANDS

    read = {name: open(os.path.join(paths.ROOT, 'docs', 'reference',
                                    f'{name}.md')).read()
            for name in ('fields', 'commands', 'variables', 'checks')}
    assert all(f'`{name}`' in read['fields'] for name in fields.FIELDS)
    assert all(f'\n## {name}\n' in read['commands'] for name in COMMANDS)
    for name in sorted(os.listdir(paths.CHECKS)):
        if not name.endswith('.py'):
            continue
        with open(os.path.join(paths.CHECKS, name)) as fp:
            text = fp.read()
        assert f'\n## {name[:-3]}\n' in read['checks']
        for variable in re.findall(r'^    (\w+) = variable\(', text, re.M):
            assert f'`{variable}`' in read['variables'], (name, variable)


@pytest.mark.skipif(MKDOCS is None, reason='mkdocs is not installed (pip '
                    'install -r requirements.txt)')
def test_the_site_builds_strictly_into_files_that_open_from_disk(tmp_path):
    site = tmp_path / 'site'
    proc = subprocess.run([MKDOCS, 'build', '--strict', '--site-dir',
                           str(site)], capture_output=True, text=True,
                          timeout=600, cwd=paths.ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert 'WARNING' not in proc.stderr, proc.stderr
    index = (site / 'index.html').read_text()
    # links between pages are to files, not to folders a server would
    # complete: the site opens from disk
    links = re.findall(r'href="([^"#:]+)"', index)
    pages = [link for link in links if not link.startswith(('http', '//'))
             and not link.endswith(('.css', '.js', '.png', '.ico'))]
    assert pages and all(link.endswith('.html') for link in pages), pages
    for link in pages:
        assert (site / link).resolve().is_file(), link
