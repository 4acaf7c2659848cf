import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The one stylesheet, inlined in every page (no extra request on a slow connection). */
export const CSS = `
*{box-sizing:border-box}html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f23;background:var(--bg)}
a{color:var(--link)}
.top{background:var(--brand);color:var(--on-brand);padding:.6rem 1rem;display:flex;align-items:center;gap:.75rem;min-height:3.25rem}
.top a{color:var(--on-brand);text-decoration:none}.top img{height:2rem;width:auto}
.top .brand{font-weight:700;font-size:1.1rem;flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
main{max-width:60rem;margin:0 auto;padding:1rem}
main.client-rendered{min-height:100vh}main.client-rendered>#app{display:flow-root}
h1{font-size:1.4rem;margin:.5rem 0 1rem}h2{font-size:1.15rem;margin:1.25rem 0 .5rem}
footer{padding:1.5rem 1rem;font-size:.9rem;color:#444;text-align:center}
.card{background:#fff;border:1px solid #d0d7de;border-radius:.6rem;padding:1rem;margin:0 0 .9rem}
.btn{display:inline-flex;align-items:center;justify-content:center;min-height:2.75rem;padding:.5rem 1rem;border-radius:.5rem;border:1px solid var(--brand);background:var(--brand);color:var(--on-brand);font:inherit;font-weight:600;cursor:pointer;text-decoration:none}
.btn.secondary{background:#fff;color:#1b1f23;border-color:#8c959f}
.btn[disabled]{opacity:.6;cursor:not-allowed}
.row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input,textarea,select{width:100%;font:inherit;padding:.6rem;border:1px solid #6e7781;border-radius:.4rem;background:#fff;color:#1b1f23}
textarea{min-height:5rem}
.muted{color:#57606a}.err{color:#a40e26;font-weight:600}.ok{color:#116329;font-weight:600}
.pill{display:inline-block;padding:.1rem .55rem;border-radius:1rem;font-size:.85rem;font-weight:600;background:#eaeef2;color:#1b1f23}
.sync{font-size:.9rem;padding:.35rem .6rem;border-radius:.4rem;background:#eaeef2}
.sync.pending{background:#fff8c5}.sync.conflict,.sync.failed{background:#ffebe9;color:#82071e}.sync.sent{background:#dafbe1}
ul.plain,ol.plain{list-style:none;margin:0;padding:0}
ul.card{padding-left:2.25rem}ul.plain.card{padding:1rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #d0d7de;vertical-align:top}
canvas.sig{width:100%;height:11rem;border:1px dashed #6e7781;border-radius:.4rem;background:#fff;touch-action:none}
.thumbs{display:flex;flex-wrap:wrap;gap:.5rem}.thumbs img{width:5.5rem;height:5.5rem;object-fit:cover;border-radius:.3rem}
.banner{padding:.5rem 1rem;background:#fff8c5;text-align:center;font-weight:600}
@media (max-width:40rem){table.lines thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}table.lines tr{display:block;padding:.5rem 0;border-bottom:1px solid #d0d7de}table.lines td{display:block;border:0;padding:.1rem 0}table.lines td[data-label]::before{content:attr(data-label) ": ";font-weight:600}}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.pill.flag{background:#ffebe9;color:#82071e}
.measure fieldset{border:1px solid #d0d7de;border-radius:.4rem;margin:.75rem 0 0;padding:.25rem .75rem .75rem;min-width:0}.measure legend{font-weight:600;padding:0 .25rem}.measure h3{margin:0}
.measure .size{display:flex;flex-wrap:wrap;gap:0 .5rem}.measure .size .inch{flex:1 1 5rem}.measure .size label{margin-top:.25rem}
.measure label.check{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.35rem 0}.measure label.check input{width:auto}
`.replace(/\n/g, '');

/** The office's screens only (quote builder, quotes, dispatch board), so the field app's pages stay as small. */
export const OFFICE_CSS = `
.invoice-facts{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}.invoice-facts dt{font-weight:600}.invoice-facts dd{margin:0}th.num,td.num{text-align:right}
.office-bar{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;margin-bottom:.75rem}.office-who{margin:0}.office-bar form{flex:1 1 16rem;max-width:28rem}.office-bar form input{flex:1;min-width:0}
.office-nav{margin-bottom:.5rem;gap:1rem}.office-nav a[aria-current]{font-weight:700}
.settings-tabs{gap:1rem;margin-bottom:.75rem}.settings-tabs a[aria-current]{font-weight:700}.wrap-any,#office-msg{overflow-wrap:anywhere}
.settings-split{display:grid;gap:0 1rem;grid-template-columns:minmax(0,1fr)}@media (min-width:900px){.settings-split{grid-template-columns:minmax(0,1fr) 18rem;align-items:start}.settings-split aside{margin-top:1rem}}
.settings-plans{display:grid;gap:0 1rem;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr))}.settings-plans .btn{margin-top:.5rem}
.grid-scroll{overflow-x:auto;max-width:100%}.grid-table{border-collapse:collapse}.grid-table th,.grid-table td{padding:.2rem;text-align:right}.grid-table input{width:5.5rem;min-width:0}.grid-table th input{width:4.5rem}
.secret input{flex:1;min-width:0;font-family:monospace}.deliveries li{border-top:1px solid #d0d7de;padding:.5rem 0}
h3{font-size:1.05rem;margin:0 0 .25rem}
fieldset{border:1px solid #d0d7de;border-radius:.4rem;margin:.75rem 0 0;padding:.25rem .75rem .75rem;min-width:0}legend{font-weight:600;padding:0 .25rem}
fieldset.card{padding:.5rem 1rem 1rem}
.fields{display:grid;gap:0 .75rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,12rem),1fr))}
.size{display:flex;flex-wrap:wrap;gap:0 .5rem}.size .inch{flex:1 1 5rem}.size .err{flex-basis:100%}.size label{margin-top:.25rem}
.err[data-err-for]{display:block;font-size:.9rem}
.checks{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,14rem),1fr))}
label.check{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.35rem 0}label.check input{width:auto}
.price-row{justify-content:space-between;margin-top:.75rem}output{font-weight:700}.total{font-size:1.15rem;font-weight:600}.total .muted{font-size:1rem;font-weight:400}#install-form{margin-top:.75rem}
dl.totals{display:grid;grid-template-columns:auto auto;justify-content:end;gap:.25rem 1.5rem}dl.totals dt{font-weight:600}dl.totals dd{margin:0;text-align:right}
.row.nowrap{flex-wrap:nowrap}.row.nowrap input{flex:1;min-width:0}
.board{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,16rem),1fr))}.column{min-width:0}
.column{border:2px dashed transparent;border-radius:.6rem;padding:.25rem .5rem}.drop-target.over{border-color:var(--brand);background:#fff}
.needs{background:#f6f8fa;border-color:#d0d7de;margin:1rem 0}
.job-card[draggable=true]{cursor:grab}.job-card.dragging{opacity:.5}
.cal-nav{gap:.75rem;margin-bottom:.5rem}.cal-nav a[aria-current]{font-weight:700}
.cal{background:#fff;border:1px solid #d0d7de;border-radius:.6rem;margin:0 0 1rem;overflow:hidden}
.cal-row{display:grid;grid-template-columns:7.5rem 1fr;border-top:1px solid #d0d7de}.cal-row.cal-head{border-top:0;background:#f6f8fa}
.cal-tech{font-size:.95rem;margin:0;padding:.5rem;overflow-wrap:anywhere}
.cal-hours,.cal-days,.cal-week{display:grid;grid-template-columns:repeat(12,1fr)}.cal-days,.cal-week{grid-template-columns:repeat(7,minmax(0,1fr))}
.cal-hours span,.cal-days span{font-size:.75rem;padding:.3rem .2rem;color:#424a53;border-left:1px solid #d0d7de}
.cal-track{position:relative;display:grid;grid-template-columns:repeat(24,1fr);min-height:4.5rem}
.cal-slot{border-left:1px dotted #d0d7de}.cal-slot.hour{border-left:1px solid #afb8c1}
.cal-slot.over,.cal-cell.over{background:#ddf4ff}
.cal-job{position:absolute;top:.4rem;bottom:.4rem;overflow:hidden;text-align:left;font:inherit;font-size:.8rem;line-height:1.2;padding:.2rem .3rem;border-radius:.35rem;border:1px solid var(--brand);border-left-width:4px;background:#fff;color:#1b1f23;cursor:grab}
.cal-job strong{display:block;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.cal-cell{border-left:1px solid #d0d7de;padding:.25rem;min-height:4.5rem;min-width:0}.cal-cell .cal-job{position:static;display:block;width:100%;margin:0 0 .25rem}
.is-dragging .cal-job{pointer-events:none}
`.replace(/\n/g, '');

/**
 * uPlot's own stylesheet (from its package, read once at start) and the reports' layout: only the
 * reports screen carries them.
 */
export const UPLOT_CSS = `${readFileSync(createRequire(import.meta.url).resolve('uplot/dist/uPlot.min.css'), 'utf8')}
.report-figures{display:grid;gap:0 .9rem;grid-template-columns:repeat(auto-fit,minmax(9.5rem,1fr))}.report-figure p{margin:0}.report-value{font-size:1.4rem;font-weight:700}
.report-chart{max-width:100%;overflow:hidden;margin:0 0 .9rem}#report-range label{display:flex;flex-direction:column;gap:.2rem}
@media (max-width:40rem){.report-table th[scope=row]{display:block;padding:.1rem 0}}
`.replace(/\n/g, '');
