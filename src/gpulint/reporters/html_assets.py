"""The style sheet and the one small script of the HTML report, inlined in every page.

The page's Content-Security-Policy allows exactly these two (by hash) and nothing else, so even
a string that escaped escaping could neither load nor run anything.
"""

from __future__ import annotations

import base64
import hashlib

CSS = """
:root{--fg:#1b1f24;--muted:#57606a;--bg:#fff;--card:#f6f8fa;--line:#d0d7de;--bar:#2f6fb0;
--track:#e8edf2;--before:#8c959f;--err:#b42318;--warn:#9a6700;--info:#1f6feb}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9da7b3;--bg:#0d1117;
--card:#161b22;--line:#30363d;--bar:#58a6ff;--track:#21262d;--before:#6e7681}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1100px;padding:16px;font:15px/1.45 system-ui,-apple-system,
"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:1.5rem;margin:0 0 4px}h2{font-size:1.2rem;margin:28px 0 8px;
border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:1rem;margin:0}
.sub,.note,figcaption p,.legend{color:var(--muted);font-size:.85rem;margin:2px 0 8px}
.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:10px;margin:16px 0}
.stat{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.stat .k{display:block;color:var(--muted);font-size:.8rem}
.stat data,.stat .v{display:block;font-size:1.15rem;white-space:nowrap;font-weight:650;
font-variant-numeric:tabular-nums}
.charts{display:grid;align-items:start;gap:14px;
grid-template-columns:repeat(auto-fit,minmax(400px,1fr))}
figure{margin:0;background:var(--card);border:1px solid var(--line);border-radius:8px;
padding:12px;min-width:0;break-inside:avoid}
figure.wide{grid-column:1/-1}
svg.bars{display:block;overflow:visible;margin-top:6px}
svg text{font-size:13px;fill:var(--fg)}svg .val{font-variant-numeric:tabular-nums;font-weight:600}
.bar{fill:var(--bar)}.mask{fill:var(--card)}.track{fill:var(--track)}.before{fill:url(#hatch)}
.hatch-bg{fill:var(--track)}.hatch-fg{fill:var(--before)}
details{margin-top:8px}summary{cursor:pointer;color:var(--muted);font-size:.85rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.85rem;margin-top:6px}
th,td{border-bottom:1px solid var(--line);padding:5px 6px;text-align:left;vertical-align:top}
th{background:var(--card)}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
th button{all:unset;cursor:pointer;font-weight:600}
th button:focus-visible{outline:2px solid var(--bar)}
th[aria-sort=ascending] button::after{content:" \\25B2"}
th[aria-sort=descending] button::after{content:" \\25BC"}
.findings td:first-child{font-weight:600;white-space:nowrap}
.s-error td:first-child{color:var(--err)}
.s-warning td:first-child{color:var(--warn)}.s-info td:first-child{color:var(--info)}
.findings td:nth-child(2) code{overflow-wrap:normal}.findings td:nth-child(4){min-width:16em}
.findings td:nth-child(5),.findings th:nth-child(5),.resources td:nth-child(4),
.resources th:nth-child(4),.resources td:nth-child(7),.resources th:nth-child(7),
.options td:nth-child(4),.options th:nth-child(4){
text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
.filters{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin:6px 0;font-size:.85rem}
.filters select{font:inherit}
footer{margin-top:28px;color:var(--muted);font-size:.8rem}
@media (max-width:560px){body{padding:10px}.charts{grid-template-columns:1fr}
thead{display:none}tr{display:block;border-bottom:1px solid var(--line);padding:6px 0}
td{display:block;border:0;padding:1px 0;overflow-wrap:anywhere}
.list td{text-align:left!important;min-width:0!important}
td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-size:.8rem}
.findings td:nth-child(5)::before{content:"Saves: ";color:var(--muted)}
.resources td:nth-child(n+2){display:inline}.resources td:nth-child(n+3)::before{content:" · "}}
@media print{body{max-width:none;font-size:11px}.filters,details>summary{display:none}
figure{border-color:#999}a{color:inherit}.stat{border-color:#999}
details.chart-table{display:none}.scroll{overflow:visible}
td{overflow-wrap:anywhere}.findings td:nth-child(4){min-width:0}}
"""

# Sort the findings table by a column and filter it by severity and rule. Without script the
# table is complete and in report order; the controls stay hidden.
JS = """
(function(){
var t=document.getElementById('findings-table');if(!t)return;
var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows),heads=t.tHead.rows[0].cells;
var sev=document.getElementById('f-sev'),rule=document.getElementById('f-rule'),
count=document.getElementById('f-count'),order={error:0,warning:1,info:2};
document.getElementById('filters').hidden=false;
function text(r,i){return r.cells[i].textContent;}
function key(r,i){var s=text(r,i);if(i===0)return order[s.split(' ').pop()];
if(i===4)return parseFloat(s.replace(/[^0-9.]/g,''))||0;return s;}
function apply(){var n=0;rows.forEach(function(r){
var ok=(!sev.value||r.className==='s-'+sev.value)&&(!rule.value||text(r,1)===rule.value);
r.hidden=!ok;if(ok)n++;});count.textContent=n+' of '+rows.length+' shown';}
sev.addEventListener('change',apply);rule.addEventListener('change',apply);
Array.prototype.forEach.call(heads,function(th,i){
th.querySelector('button').addEventListener('click',function(){
var asc=th.getAttribute('aria-sort')!=='ascending';
Array.prototype.forEach.call(heads,function(o){o.removeAttribute('aria-sort');});
th.setAttribute('aria-sort',asc?'ascending':'descending');
rows.sort(function(a,b){var x=key(a,i),y=key(b,i),
c=typeof x==='number'?x-y:String(x).localeCompare(String(y));return asc?c:-c;});
rows.forEach(function(r){body.appendChild(r);});});});
apply();})();
"""


def _sha256(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def content_security_policy() -> str:
    """Nothing may load; only the inline style and script above may apply."""
    return (f"default-src 'none'; style-src 'sha256-{_sha256(CSS)}'; "
            f"script-src 'sha256-{_sha256(JS)}'; base-uri 'none'; "
            "form-action 'none'")
