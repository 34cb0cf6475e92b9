"""libCacheSim's own LRU (the `libcachesim` package from PyPI) over an oracleGeneral block file,
one pass per cache size; prints JSON lines {blocks, seconds, requests, missRatio, byteMissRatio}.
Usage: python lcs_lru.py FILE BLOCK_BYTES BLOCKS[,BLOCKS...]"""
import json
import sys
import time

import libcachesim as lcs

path, block, sizes = sys.argv[1], int(sys.argv[2]), [int(x) for x in sys.argv[3].split(",")]
for blocks in sizes:
    reader = lcs.TraceReader(trace=path, trace_type=lcs.TraceType.ORACLE_GENERAL_TRACE)
    cache = lcs.LRU(cache_size=blocks * block)
    t0 = time.perf_counter()
    miss, byte_miss = cache.process_trace(reader)
    dt = time.perf_counter() - t0
    print(json.dumps({"blocks": blocks, "seconds": dt, "requests": reader.get_num_of_req() if hasattr(reader, "get_num_of_req") else None,
                      "missRatio": miss, "byteMissRatio": byte_miss}), flush=True)
