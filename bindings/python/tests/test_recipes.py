"""The recipes of docs/python.md, each with the package it is for."""

import pytest

import charsight

PAGE = (
    "<html><head><title>Caf\u00e9</title></head><body><p>Fran\u00e7ois et Ren\u00e9e prennent "
    "un caf\u00e9 cr\u00e8me \u00e0 la gare, pr\u00e8s du march\u00e9.</p></body></html>"
).encode("cp1252")


def test_requests_content_and_apparent_encoding():
    requests = pytest.importorskip("requests")
    response = requests.models.Response()
    response._content = PAGE
    response.headers["Content-Type"] = "text/html"
    # The text, with the header's charset (none here) as evidence:
    text = charsight.decode(response.content, content_type=response.headers.get("Content-Type")).text
    assert "Fran\u00e7ois" in text
    # Or replace requests' guess (apparent_encoding) before reading .text:
    response.encoding = charsight.detect(response.content)["encoding"]
    assert response.text == text


def test_beautiful_soup_unicode_dammit():
    bs4 = pytest.importorskip("bs4")
    encoding = charsight.detect(PAGE)["encoding"]
    dammit = bs4.UnicodeDammit(PAGE, known_definite_encodings=[encoding])
    assert dammit.original_encoding == encoding
    assert "caf\u00e9 cr\u00e8me" in dammit.unicode_markup
    soup = bs4.BeautifulSoup(PAGE, "html.parser", from_encoding=encoding)
    assert soup.title.string == "Caf\u00e9"


def test_w3lib_html_to_unicode():
    encoding = pytest.importorskip("w3lib.encoding")
    name, text = encoding.html_to_unicode(
        "text/html", PAGE, auto_detect_fun=lambda data: charsight.detect(data)["encoding"]
    )
    assert "Fran\u00e7ois" in text


def test_pandas_read_csv(tmp_path):
    pd = pytest.importorskip("pandas")
    path = tmp_path / "villes.csv"
    path.write_bytes("ville;r\u00e9gion\nS\u00e8te;Occitanie\nB\u00e9ziers;Occitanie\n"
                     "Besan\u00e7on;Bourgogne-Franche-Comt\u00e9\n".encode("cp1252"))
    with open(path, "rb") as f:
        encoding = charsight.detect(f.read())["encoding"]
    frame = pd.read_csv(path, sep=";", encoding=encoding)
    assert list(frame["ville"]) == ["S\u00e8te", "B\u00e9ziers", "Besan\u00e7on"]
