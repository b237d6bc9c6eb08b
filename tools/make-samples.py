#!/usr/bin/env python3
"""Makes the sample documents in samples/ from ../shared/text (run: python3 tools/make-samples.py). See tools/samples.md."""
import html as H
import os, sys
T=os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../shared/text/')
def lines(lang, n, enc, start=200):
    out=[]
    for l in open(T+lang+'.txt',encoding='utf-8'):
        l=l.strip()
        if not 60<len(l)<260: continue
        try: l.encode(enc)
        except UnicodeEncodeError: continue
        out.append(l)
    return out[start:start+n]
def esc(s): return H.escape(s, quote=False)
def html(title, paras, head):
    body=''.join(f'<p>{esc(p)}</p>\n' for p in paras)
    return f'<!DOCTYPE html>\n<html>\n<head>\n{head}<title>{title}</title>\n<link rel="stylesheet" href="/static/site.css">\n</head>\n<body>\n<h1>{title}</h1>\n{body}<footer><a href="/about">about</a></footer>\n</body>\n</html>\n'
S=os.path.join(os.path.dirname(os.path.abspath(__file__)), "../samples/")
open(S+'ja-shift_jis.html','wb').write(html('マニュアル', lines('ja',6,'cp932'), '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">\n').encode('cp932'))
open(S+'ru-windows-1251.html','wb').write(html('Руководство', lines('ru',6,'cp1251'), '<meta charset="windows-1251">\n').encode('cp1251'))
items=''.join(f'<item>\n<title>{esc(x[:12])}</title>\n<link>https://example.cn/n/{i}</link>\n<description>{esc(x)}</description>\n</item>\n' for i,x in enumerate(lines('zh-Hans',5,'gb2312')))
open(S+'zh-gb2312-feed.xml','wb').write(f'<?xml version="1.0" encoding="GB2312"?>\n<rss version="2.0">\n<channel>\n<title>新闻</title>\n<link>https://example.cn/</link>\n{items}</channel>\n</rss>\n'.encode('gbk'))
open(S+'ko-euc-kr-undeclared.html','wb').write(html('도움말', lines('ko',6,'euc-kr'), '').encode('euc-kr'))
open(S+'de-utf8-bom.txt','wb').write(b'\xef\xbb\xbf'+('\n'.join(lines('de',8,'utf-8'))+'\n').encode('utf-8'))
doc='<?xml version="1.0" encoding="UTF-16"?>\n<notes>\n'+''.join(f'<note id="{i}">{esc(x)}</note>\n' for i,x in enumerate(lines('fr',5,'utf-8')))+'</notes>\n'
open(S+'fr-utf16le-bom.xml','wb').write(b'\xff\xfe'+doc.encode('utf-16-le'))
open(S+'el-utf8-meta-says-latin1.html','wb').write(html('Ρυθμίσεις', lines('el',6,'utf-8'), '<meta http-equiv="content-type" content="text/html; charset=iso-8859-1">\n').encode('utf-8'))
doc='<?xml version="1.0" encoding="UTF-32"?>\n<doc>\n'+''.join(f'<p>{esc(x)}</p>\n' for x in lines('es',5,'utf-8'))+'</doc>\n'
open(S+'es-utf32be.xml','wb').write(doc.encode('utf-32-be'))
open(S+'en-ascii.txt','wb').write(('\n'.join(lines('en',6,'ascii'))+'\n').encode('ascii'))
# A UTF-8 page with the damage `charsight repair` undoes, one kind per paragraph: stray
# windows-1252 bytes, a paragraph encoded twice (UTF-8 read as windows-1252), a Chinese quote
# as numeric references to its GBK bytes, and a formula drawn through the Symbol font.
def twice(s): return s.encode('utf-8').decode('cp1252').encode('utf-8')
fr=[l for l in lines('fr',40,'utf-8',0) if 'é' in l and 'è' not in l]
stray=esc(fr[0]).encode('utf-8').replace('é'.encode('utf-8'),b'\xe9',1)
stray=b'\x93'+stray+b'\x94'
moji=[l for l in fr[1:] if all(ord(c)<0x250 for c in l)]
double=b''
for l in moji:
    try: double=twice(esc(l)); break
    except UnicodeDecodeError: continue
quote=lines('zh-Hans',1,'gb2312',10)[0][:16]
ncr=''.join(c if ord(c)<128 else f'&#{ord(c)};' for c in quote.encode('gb2312').decode('latin-1'))
body=(b'<p>'+stray+b'</p>\n<p>'+double+b'</p>\n<blockquote lang="zh">'+ncr.encode()+b'</blockquote>\n'
      b'<p>Soit <font face="Symbol">a + b = g</font>.</p>\n')
page=html('Notes', [], '<meta charset="utf-8">\n').encode('utf-8').replace(b'<footer>', body+b'<footer>')
open(S+'fr-utf8-damaged.html','wb').write(page)
