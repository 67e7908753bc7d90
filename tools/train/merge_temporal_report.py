#!/usr/bin/python3
"""Puts one method's column of a partial held-out report into the full report of the same plan and
settings (both written by evaluate_temporal.py), for a new network scored on the GPU machine with
`--methods taau,ml-temporal` when the device time does not cover every method again:

    merge_temporal_report.py docs/quality/temporal.md NEW.md [--method "temporal ML"] [--out FILE]
                             [--crops-from REPORT]

The two reports must describe the same content (the "Held-out content only" paragraph word for
word), hold the same sequences, and agree to the last printed digit on every figure of every other
method they share (TAAU): the same engine rendered the same frames, so only the network changed.
Anything else is refused by name. The merged report takes the method's summary row, per-sequence
and camera-cut cells from NEW.md, recomputes its "vs bicubic" cell and the target lines from the
printed means, keeps the crops (whose panels show the network of the full report: a line says so)
or, with --crops-from, takes those of a report of the same settings rendered with every method
(a subset of the sequences will do: the crops' sequences and panels must match), and adds a line
naming where the column and the crops came from.
"""
import argparse
import os
import re
import shutil
import sys


def tables(lines):
    """{first header cell: (start index, header cells, {first cell: [cells]})} of every table."""
    out, i = {}, 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            header = [c.strip() for c in lines[i].strip().strip("|").split("|")]
            rows, j = {}, i + 2
            while j < len(lines) and lines[j].startswith("|"):
                cells = [c.strip() for c in lines[j].strip().strip("|").split("|")]
                rows[cells[0]] = cells
                j += 1
            key = header[0] if header[0] not in out else f"{header[0]}@{i}"
            out[key] = (i, header, rows)
            i = j
        else:
            i += 1
    return out


def paragraph(lines, prefix):
    return next((line for line in lines if line.startswith(prefix)), None)


def merge(full_text, part_text, method, part_name):
    full, part = full_text.split("\n"), part_text.split("\n")
    about = "**Held-out content only**"
    if paragraph(full, about) is None or paragraph(full, about) != paragraph(part, about):
        raise SystemExit("the two reports describe different content or settings (their 'Held-out content only' paragraphs differ)")
    ft, pt = tables(full), tables(part)
    if "Method" not in ft or "Method" not in pt or method not in pt["Method"][2]:
        raise SystemExit(f"'{method}' has no summary row in {part_name}")
    fkeys, pkeys = sorted(k for k in ft if k != "Method"), sorted(k for k in pt if k != "Method")
    if [k.split("@")[0] for k in fkeys] != [k.split("@")[0] for k in pkeys]:
        raise SystemExit("the two reports hold different tables")
    # Every shared method other than the one taken must agree cell by cell.
    for label, cells in pt["Method"][2].items():
        if label != method and label in ft["Method"][2]:
            f = ft["Method"][2][label]
            if [f[1], f[3], f[4]] != [cells[1], cells[3], cells[4]]:
                raise SystemExit(f"'{label}' differs between the reports ({' | '.join(f)} against {' | '.join(cells)}): not the same renders")
    for fk, pk in zip(fkeys, pkeys):
        _, fh, frows = ft[fk]
        _, ph, prows = pt[pk]
        if sorted(frows) != sorted(prows):
            raise SystemExit(f"the table '{fk.split('@')[0]}' holds other sequences in the two reports")
        if method not in ph or method not in fh:
            raise SystemExit(f"'{method}' is missing from the table '{fk.split('@')[0]}'")
        for col in ph[1:]:
            if col != method and col in fh:
                for name in prows:
                    a, b = frows[name][fh.index(col)], prows[name][ph.index(col)]
                    if a != b:
                        raise SystemExit(f"'{col}' on {name} differs between the reports ({a} against {b}): not the same renders")
    # Take the column.
    for fk, pk in zip(fkeys, pkeys):
        start, fh, frows = ft[fk]
        _, ph, prows = pt[pk]
        for n, name in enumerate(frows):
            cells = frows[name]
            cells[fh.index(method)] = prows[name][ph.index(method)]
            full[start + 2 + n] = "| " + " | ".join(cells) + " |"
    start, header, rows = ft["Method"]
    new = pt["Method"][2][method]
    bicubic = rows.get("bicubic")
    for n, label in enumerate(rows):
        if label == method:
            versus = f"{float(new[1]) - float(bicubic[1]):+.2f}" if bicubic else "n/a"
            rows[label] = [label, new[1], versus, new[3], new[4]]
            full[start + 2 + n] = "| " + " | ".join(rows[label]) + " |"
    retarget(full, rows)
    marker = f"The {method} column (summary, sequences and cuts) is "
    full = [line for line in full if not line.startswith(marker)]  # an earlier merge's line
    while full and full[-1] == "":
        full.pop()
    crops = any(line.startswith("Crops") for line in full)
    source = paragraph(part, "Evaluation took") or "Evaluation took an unknown time."
    full += ["", marker + f"`{part_name}`, merged by `tools/train/merge_temporal_report.py` (every other "
             f"method both reports score agrees to the last digit); there: {source[0].lower() + source[1:]}"
             + (stale_crops_note(method) if crops else ""), ""]
    return "\n".join(full)


def stale_crops_note(method):
    """What the provenance line says of crops the merge did not render again."""
    if method == "temporal ML":
        return " The crops above are the full report's: their temporal ML panel shows its network."
    return f" The crops above are the full report's: their {method} panel shows the {method} that report rendered, not this column's."


def crop_images(lines, report):
    """[(sequence, image path)] of a report's crops section, and its panel line."""
    panels = paragraph(lines, "Crops (")
    images = [re.match(r"!\[(.*)\]\((.*)\)$", line) for line in lines if line.startswith("![")]
    return panels, [(m.group(1), os.path.join(os.path.dirname(os.path.abspath(report)), m.group(2))) for m in images if m]


def take_crops(merged_text, full_path, crops_report, method="temporal ML"):
    """Copies the crops of crops_report over the merged report's own crop files and says so in its
    provenance line (instead of the line that its crops show the network of before)."""
    merged, other = merged_text.split("\n"), open(crops_report).read().split("\n")
    panels, mine = crop_images(merged, full_path)
    other_panels, theirs = crop_images(other, crops_report)
    if not mine:
        raise SystemExit(f"{full_path} has no crops to replace")
    settings = [re.sub(r"^\*\*Held-out content only\*\*: \d+ sequences [^(]*\([^)]*\)\. ", "", paragraph(text, "**Held-out") or "")
                for text in (merged, other)]
    if settings[0] != settings[1] or not settings[0]:
        raise SystemExit(f"{crops_report} was rendered with other settings than the report")
    if panels != other_panels:
        raise SystemExit(f"the crops of {crops_report} show other panels ({other_panels!r} against {panels!r})")
    if [name for name, _ in mine] != [name for name, _ in theirs]:
        raise SystemExit(f"the crops of {crops_report} are of other sequences ({', '.join(n for n, _ in theirs)} against "
                         f"{', '.join(n for n, _ in mine)})")
    for (_, dst), (_, src) in zip(mine, theirs):
        if not os.path.isfile(src):
            raise SystemExit(f"{src}: no such crop")
        if os.path.abspath(src) != os.path.abspath(dst):
            shutil.copyfile(src, dst)
    source = paragraph(other, "Evaluation took") or "Evaluation took an unknown time."
    old = stale_crops_note(method)
    what = "the network of this column" if method == "temporal ML" else f"this column's {method}"
    new = (f" The crops above are `{crops_report}`'s, every panel rendered again with {what}"
           f" ({source[0].lower() + source[1:].rstrip('.')}).")
    # An earlier merge's line of another method no longer describes the crops: its sentence on them goes.
    mine_marker = f"The {method} column (summary, sequences and cuts) is "
    def restate(line):
        if " column (summary, sequences and cuts) is " in line and not line.startswith(mine_marker) and " The crops above are " in line:
            return line[:line.index(" The crops above are ")]
        return line.replace(old, new)
    return "\n".join(restate(line) for line in merged)


def retarget(lines, rows):
    """The target lines again, from the printed means (evaluate_temporal.py writes them from the
    unrounded means: a margin may read 0.01 apart from what a full run would print)."""
    def psnr(label):
        return float(rows[label][1]) if label in rows else None

    t, b, ml = psnr("TAAU"), psnr("bicubic"), psnr("temporal ML")
    if None in (t, b, ml):
        return
    fm, ft = float(rows["temporal ML"][4]), float(rows["TAAU"][4])
    verdict = lambda ok: "met" if ok else "missed"  # noqa: E731
    want = {
        "- TAAU >= bicubic + 3 dB:": f"- TAAU >= bicubic + 3 dB: {t - b:+.2f} dB, **{verdict(t - b >= 3)}**.",
        "- Temporal ML >= TAAU + 1.5 dB:": f"- Temporal ML >= TAAU + 1.5 dB: {ml - t:+.2f} dB, **{verdict(ml - t >= 1.5)}**.",
        "- Temporal ML >= bicubic + 5 dB:": f"- Temporal ML >= bicubic + 5 dB: {ml - b:+.2f} dB, **{verdict(ml - b >= 5)}**.",
        "- Temporal ML flicker <= TAAU's:": f"- Temporal ML flicker <= TAAU's: {fm:.3f} vs {ft:.3f}, **{verdict(fm <= ft)}**.",
    }
    for i, line in enumerate(lines):
        for prefix, text in want.items():
            if line.startswith(prefix):
                lines[i] = text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("full")
    ap.add_argument("partial")
    ap.add_argument("--method", default="temporal ML", help="the method's label in the reports")
    ap.add_argument("--out", help="where to write the merged report (default: over FULL)")
    ap.add_argument("--crops-from", metavar="REPORT",
                    help="a report of the same settings with every method (a subset of the sequences will do) whose "
                         "crops replace FULL's: the same sequences and panels, copied over FULL's crop files")
    args = ap.parse_args()
    for path in (args.full, args.partial):
        if not os.path.isfile(path):
            raise SystemExit(f"{path}: no such file")
    if args.crops_from and not os.path.isfile(args.crops_from):
        raise SystemExit(f"{args.crops_from}: no such file")
    try:
        merged = merge(open(args.full).read(), open(args.partial).read(), args.method, args.partial)
        if args.crops_from:
            merged = take_crops(merged, args.out or args.full, args.crops_from, args.method)
    except (IndexError, ValueError) as e:  # a table row short of cells, a figure that is not a number
        raise SystemExit(f"{args.full} or {args.partial} is not a report of evaluate_temporal.py ({type(e).__name__}: {e})")
    with open(args.out or args.full, "w") as f:
        f.write(merged)
    print(f"wrote {args.out or args.full}", file=sys.stderr)


if __name__ == "__main__":
    main()
