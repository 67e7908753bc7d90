"""Reading the benchmark JSONs (ml_bench, peer_torch.py, frame_bench) for make_results.py and
plot_results.py. Accepts the older ml_bench/peer schema (no group/resolution fields) too."""
import glob
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS_DIR = os.path.join(HERE, "results")


def load(path):
    with open(path) as f:
        data = json.load(f)
    for r in data.get("results", []):
        r.setdefault("resolution", r["name"].split()[-1] if "name" in r else "")
        r.setdefault("group", "network" if r.get("name", "").split()[0] in ("espcn_x2", "fsrcnn_x2") else "op")
    return data


def latest(tool):
    """The newest bench/results/<date>_<tool>.json (file names sort by date)."""
    files = sorted(glob.glob(os.path.join(RESULTS_DIR, f"*_{tool}.json")))
    return files[-1] if files else None


def latest_set(tool):
    """Every <date>_<tool>*.json of the newest date: a run split over several device commands
    (<date>_peer_torch.json + <date>_peer_torch_compile.json, <date>_ml_bench.json +
    <date>_ml_bench_ops.json)."""
    files = glob.glob(os.path.join(RESULTS_DIR, f"*_{tool}*.json"))
    if not files:
        return []
    date = max(os.path.basename(f).split(f"_{tool}")[0] for f in files)
    return sorted(glob.glob(os.path.join(RESULTS_DIR, f"{date}_{tool}*.json")))


def latest_peers():
    return latest_set("peer_torch")


def load_merged(paths, key):
    """Several JSONs of one tool as one: the first file's header fields (device, ceilings), the
    results of all, later files winning on equal key(row)."""
    if not paths:
        return None
    merged, seen = None, {}
    for p in paths:
        data = load(p)
        if merged is None:
            merged = dict(data, results=[])
        for r in data.get("results", []):
            seen[key(r)] = r
    merged["results"] = list(seen.values())
    return merged


def load_ml(paths):
    """ml_bench JSONs as one (rows keyed by name + precision), in one file's order: per precision
    networks, convolutions, operators, whatever the split."""
    merged = load_merged(paths, lambda r: (r["name"], r["precision"]))
    if merged:
        precisions = list(dict.fromkeys(r["precision"] for r in merged["results"]))
        groups = {"network": 0, "conv": 1, "op": 2}
        merged["results"].sort(key=lambda r: (precisions.index(r["precision"]), groups.get(r["group"], 3)))
    return merged


def load_peers(paths):
    """peer_torch.py JSONs as one (rows keyed by name + config)."""
    return load_merged(paths, lambda r: (r["name"], r["config"]))


def network(name):
    return name.rsplit(" ", 1)[0]


def pixels(resolution):
    w, h = resolution.split("x")
    return int(w) * int(h)


def best(rows, key="median_ms"):
    rows = [r for r in rows if r.get(key) is not None]
    return min(rows, key=lambda r: r[key]) if rows else None


def ours_by_case(ml):
    """{case name: {precision label: row}} of ml_bench's results."""
    out = {}
    for r in ml.get("results", []):
        out.setdefault(r["name"], {})[r["precision"]] = r
    return out


def peer_by_case(peer):
    out = {}
    for r in peer.get("results", []):
        if r.get("median_ms") is not None:
            out.setdefault(r["name"], {})[r["config"]] = r
    return out
