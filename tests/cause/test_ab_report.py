'''The report's A/B section (``microbench report --ab FILE``,
microbench/verdicts/report/absection.py): the real A/A of a quick
``fio_fallocate`` run here (tests/data/ab), and one of its figures moved;
an A/B JSON that is not one is one line, exit 2.'''

import copy
import html
import json
import re

from microbench import cli
from microbench.cause import ab_json
from microbench.verdicts import storage
from microbench.verdicts.report import absection

from fixtures import path

AA = 'ab/fio_fallocate-aa.json'
AB = 'ab/fio_cache_flags-ab-342.json'
RESULTS = 'results/fio-quick-1.json'


def document():
    return ab_json.read(path(AA)).doc


def test_the_section_says_both_stacks_and_every_figure():
    text = '\n'.join(absection.section(document()))
    assert text.startswith('<section id="ab"><h2>A/B: B against A</h2>')
    assert text.count('<tr>') == 1 + 3
    assert 'same (within ±25 %)' in text
    assert 'A: /usr/bin (/usr/bin; fio fio-3.33)' in text
    assert 'nodes vm (jobs local 11134, local 13815, local 15504)' in text
    assert '10 pairs of rounds, ABBA' in text
    # a same has no line of why under it
    assert 'class="why"' not in text


def test_a_real_ab_marks_the_figure_that_moved():
    '''The A/B of apt's fio 3.33 and a Spack stack's fio 3.42 here: its
    buffered writes B slower, dontcache measured on B only.'''
    text = '\n'.join(absection.section(ab_json.read(path(AB)).doc))
    assert '<td class="regression">B slower</td>' in text
    assert 'B/A 0.852 [0.741, 0.979] from 10 pairs' in text
    assert ('lock 7ce799e7508c6eaab8b2331799f470da7d2616559a24b9ddedb10f6'
            'ac96d0dde') in text
    assert text.count('0 (10 lost)') == 3


def test_a_figure_that_moved_is_marked_and_says_why():
    doc = copy.deepcopy(document())
    row = doc['figures'][0]
    row.update(verdict='B slower', label='B slower',
               why='B/A 0.700 [0.650, 0.750] from 10 pairs: <beyond>')
    text = '\n'.join(absection.section(doc))
    assert '<td class="regression">B slower</td>' in text
    assert html.escape('from 10 pairs: <beyond>') in text
    assert '<beyond>' not in text


def test_the_report_holds_the_section(tmp_path, capsys):
    db = tmp_path / 'results.db'
    with open(path(RESULTS)) as fp:
        storage.store(str(db), json.load(fp))
    out = tmp_path / 'report'
    code = cli.main(['report', '--db', str(db), '-o', str(out), '--ab',
                     path(AA)])
    assert code == 0, capsys.readouterr().err
    page = (out / 'report.html').read_text()
    found = re.search(r'<section id="ab">(.*?)</section>', page, re.S)
    assert found and 'fio_fallocate_gap' in found[1]
    assert page.index('id="ab"') < page.index('id="latest"')


def test_a_file_that_is_not_an_ab_json_is_one_line(tmp_path, capsys):
    bad = tmp_path / 'bad.json'
    doc = document()
    doc['version'] = 99
    bad.write_text(json.dumps(doc))
    db = tmp_path / 'results.db'
    with open(path(RESULTS)) as fp:
        storage.store(str(db), json.load(fp))
    code = cli.main(['report', '--db', str(db), '-o', str(tmp_path / 'out'),
                     '--ab', str(bad)])
    err = capsys.readouterr().err
    assert code == 2 and err.count('\n') == 1, err
    assert f'{bad}: the JSON of microbench ab version 99' in err
    assert not (tmp_path / 'out').exists()
