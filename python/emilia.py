"""Emilia, a Reversi/Othello engine: a Python binding of libemilia (ctypes).

No compiled extension: this module loads the shared library libemilia.so.0
and calls the C API of emilia.h (docs/api.md).  The library is looked up in
this order: the EMILIA_LIB environment variable (a path), the build folders
of the source tree this file sits in (build/*-release/lib/), then the
system's library path (`make install`).

    import emilia
    with emilia.Engine(threads=2) as e:
        e.set_obf("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
        r = e.solve()
        print(r.move, r.score)          # g8 18

Moves are names ("f5", "pass"); scores are discs from the side to move's
view.  Errors raise EmiliaError, whose status is the C status name
("EMILIA_ERR_ILLEGAL") and whose message is the engine's explanation.
Thread safety is the C library's: one engine is used by one thread at a
time, except stop(), which any thread may call while another searches
(ctypes releases the GIL during the search).  Each engine has its own
weights (weights=), tables and threads.
"""

import ctypes
import ctypes.util
import glob
import os
from collections import namedtuple

__all__ = ["Engine", "EmiliaError", "Info", "version", "move_name", "parse_move",
           "BLACK", "WHITE", "EASY", "NORMAL", "HARD"]

BLACK, WHITE = 0, 1
PASS, NO_MOVE = 64, 65
EASY, NORMAL, HARD = -1, -2, -3
MAX_MOVES = 64
MAX_PV = 64

_STATUS = ["EMILIA_OK", "EMILIA_ERR_NULL", "EMILIA_ERR_ARGUMENT", "EMILIA_ERR_PARSE",
           "EMILIA_ERR_ILLEGAL", "EMILIA_ERR_GAME_OVER", "EMILIA_ERR_NO_UNDO",
           "EMILIA_ERR_FILE", "EMILIA_ERR_MEMORY", "EMILIA_ERR_STOPPED", "EMILIA_ERR_BUFFER"]
_LEVELS = {"easy": EASY, "normal": NORMAL, "hard": HARD}


class _Options(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("threads", ctypes.c_int),
                ("hash_mb", ctypes.c_int), ("level", ctypes.c_int),
                ("board_size", ctypes.c_int), ("anti", ctypes.c_int),
                ("seed", ctypes.c_uint64), ("weights_file", ctypes.c_char_p),
                ("book_file", ctypes.c_char_p), ("use_book", ctypes.c_int)]


class _Limits(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("depth", ctypes.c_int),
                ("move_time", ctypes.c_double), ("nodes", ctypes.c_uint64),
                ("time_left", ctypes.c_double), ("increment", ctypes.c_double),
                ("moves_to_go", ctypes.c_int), ("multipv", ctypes.c_int),
                ("infinite", ctypes.c_int)]


class _Info(ctypes.Structure):
    _fields_ = [("move", ctypes.c_int), ("score", ctypes.c_int), ("depth", ctypes.c_int),
                ("selectivity", ctypes.c_int), ("exact", ctypes.c_int), ("wld", ctypes.c_int),
                ("book", ctypes.c_int), ("multipv_index", ctypes.c_int),
                ("pvlen", ctypes.c_int), ("pv", ctypes.c_int * MAX_PV),
                ("nodes", ctypes.c_uint64), ("seconds", ctypes.c_double)]


_INFO_FN = ctypes.CFUNCTYPE(None, ctypes.POINTER(_Info), ctypes.c_void_p)


def _find_library():
    path = os.environ.get("EMILIA_LIB")
    if path:
        return path
    here = os.path.dirname(os.path.abspath(__file__))
    built = sorted(glob.glob(os.path.join(here, "..", "build", "*-release", "lib", "libemilia.so.0")))
    if built:
        return built[0]
    return ctypes.util.find_library("emilia") or "libemilia.so.0"


def _load():
    lib = ctypes.CDLL(_find_library())
    E = ctypes.c_void_p
    st = ctypes.c_int
    sigs = {
        "emilia_version": (ctypes.c_char_p, []),
        "emilia_kernel": (ctypes.c_char_p, []),
        "emilia_strerror": (ctypes.c_char_p, [st]),
        "emilia_options_init": (None, [ctypes.POINTER(_Options)]),
        "emilia_limits_init": (None, [ctypes.POINTER(_Limits)]),
        "emilia_create": (st, [ctypes.POINTER(_Options), ctypes.POINTER(E), ctypes.c_char_p, ctypes.c_size_t]),
        "emilia_destroy": (None, [E]),
        "emilia_last_error": (ctypes.c_char_p, [E]),
        "emilia_set_level": (st, [E, ctypes.c_int]),
        "emilia_set_threads": (st, [E, ctypes.c_int]),
        "emilia_set_hash": (st, [E, ctypes.c_int]),
        "emilia_new_game": (st, [E]),
        "emilia_set_transcript": (st, [E, ctypes.c_char_p]),
        "emilia_set_obf": (st, [E, ctypes.c_char_p]),
        "emilia_get_obf": (st, [E, ctypes.c_char_p, ctypes.c_size_t]),
        "emilia_get_transcript": (st, [E, ctypes.c_char_p, ctypes.c_size_t]),
        "emilia_side_to_move": (ctypes.c_int, [E]),
        "emilia_is_game_over": (ctypes.c_int, [E]),
        "emilia_discs": (st, [E, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]),
        "emilia_legal_moves": (st, [E, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]),
        "emilia_play": (st, [E, ctypes.c_int]),
        "emilia_play_text": (st, [E, ctypes.c_char_p]),
        "emilia_undo": (st, [E]),
        "emilia_move_name": (st, [ctypes.c_int, ctypes.c_char_p]),
        "emilia_parse_move": (ctypes.c_int, [ctypes.c_char_p]),
        "emilia_search": (st, [E, ctypes.POINTER(_Limits), _INFO_FN, ctypes.c_void_p, ctypes.POINTER(_Info)]),
        "emilia_analyze": (st, [E, ctypes.POINTER(_Limits), ctypes.c_int, _INFO_FN, ctypes.c_void_p,
                                ctypes.POINTER(_Info), ctypes.POINTER(ctypes.c_int)]),
        "emilia_stop": (None, [E]),
        "emilia_solve": (st, [E, ctypes.c_int, ctypes.POINTER(_Limits), ctypes.POINTER(_Info)]),
        "emilia_evaluate": (st, [E, ctypes.POINTER(ctypes.c_int)]),
        "emilia_perft": (st, [E, ctypes.c_int, ctypes.POINTER(ctypes.c_uint64)]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    return lib


_lib = _load()


class EmiliaError(Exception):
    """A failed call: status is the C status name, message the engine's text."""

    def __init__(self, status, message):
        self.code = status
        self.status = _STATUS[status] if 0 <= status < len(_STATUS) else str(status)
        self.message = message or _lib.emilia_strerror(status).decode()
        super().__init__("%s: %s" % (self.status, self.message))


Info = namedtuple("Info", "move score depth exact wld book pv nodes seconds multipv_index selectivity")
Info.__doc__ = """A search's result or one report: move and pv as names, score in discs."""


def version():
    """The library's version, "0.1.0"."""
    return _lib.emilia_version().decode()


def kernel():
    """The CPU kernel the library runs: "avx2" or "portable"."""
    return _lib.emilia_kernel().decode()


def move_name(move):
    """A square number (0..63, 64 pass, 65 none) as a name ("f5")."""
    buf = ctypes.create_string_buffer(5)
    if _lib.emilia_move_name(move, buf) != 0:
        raise ValueError("no square: %r" % (move,))
    return buf.value.decode()


def parse_move(text):
    """A move name as a number (0..63, 64 for a pass); ValueError if it is none."""
    m = _lib.emilia_parse_move(text.encode())
    if m < 0:
        raise ValueError("not a move: %r" % (text,))
    return m


def _info(c):
    return Info(move_name(c.move), c.score, c.depth, bool(c.exact), bool(c.wld), bool(c.book),
                [move_name(m) for m in c.pv[:c.pvlen]], c.nodes, c.seconds, c.multipv_index,
                c.selectivity)


def _level(level):
    if isinstance(level, str):
        if level.lower() in _LEVELS:
            return _LEVELS[level.lower()]
        return int(level)
    return level


class Engine:
    """An engine with its game.  Close it with close() or a with block."""

    def __init__(self, threads=1, hash_mb=64, level="hard", board_size=8, anti=False, seed=0,
                 weights=None, book=None, use_book=True):
        o = _Options()
        _lib.emilia_options_init(ctypes.byref(o))
        o.threads, o.hash_mb, o.level = threads, hash_mb, _level(level)
        o.board_size, o.anti, o.seed = board_size, int(bool(anti)), seed
        o.weights_file = os.fsencode(weights) if weights is not None else None
        o.book_file = os.fsencode(book) if book is not None else None
        o.use_book = int(bool(use_book))
        handle = ctypes.c_void_p()
        err = ctypes.create_string_buffer(512)
        status = _lib.emilia_create(ctypes.byref(o), ctypes.byref(handle), err, len(err))
        if status != 0:
            raise EmiliaError(status, err.value.decode(errors="replace"))
        self._e = handle

    # -- life ------------------------------------------------------------
    def close(self):
        if self._e:
            _lib.emilia_destroy(self._e)
            self._e = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def _check(self, status):
        if status != 0:
            msg = _lib.emilia_last_error(self._e) if self._e else None
            raise EmiliaError(status, msg.decode(errors="replace") if msg else "")

    def _handle(self):
        if not self._e:
            raise EmiliaError(1, "the engine is closed")
        return self._e

    # -- options ---------------------------------------------------------
    def set_level(self, level):
        self._check(_lib.emilia_set_level(self._handle(), _level(level)))

    def set_threads(self, threads):
        self._check(_lib.emilia_set_threads(self._handle(), threads))

    def set_hash(self, mb):
        self._check(_lib.emilia_set_hash(self._handle(), mb))

    # -- the position ----------------------------------------------------
    def new_game(self):
        self._check(_lib.emilia_new_game(self._handle()))

    def set_transcript(self, moves):
        self._check(_lib.emilia_set_transcript(self._handle(), moves.encode()))

    def set_obf(self, obf):
        self._check(_lib.emilia_set_obf(self._handle(), obf.encode()))

    @property
    def obf(self):
        buf = ctypes.create_string_buffer(80)
        self._check(_lib.emilia_get_obf(self._handle(), buf, len(buf)))
        return buf.value.decode()

    @property
    def transcript(self):
        buf = ctypes.create_string_buffer(300)
        self._check(_lib.emilia_get_transcript(self._handle(), buf, len(buf)))
        return buf.value.decode()

    @property
    def side_to_move(self):
        return _lib.emilia_side_to_move(self._handle())

    def is_game_over(self):
        return _lib.emilia_is_game_over(self._handle()) == 1

    def discs(self):
        """(black, white)"""
        b, w = ctypes.c_int(), ctypes.c_int()
        self._check(_lib.emilia_discs(self._handle(), ctypes.byref(b), ctypes.byref(w)))
        return b.value, w.value

    def legal_moves(self):
        moves = (ctypes.c_int * MAX_MOVES)()
        n = ctypes.c_int()
        self._check(_lib.emilia_legal_moves(self._handle(), moves, ctypes.byref(n)))
        return [move_name(m) for m in moves[:n.value]]

    def play(self, move):
        """Play a move given as a name ("f5", "pass") or a square number."""
        if isinstance(move, str):
            self._check(_lib.emilia_play_text(self._handle(), move.encode()))
        else:
            self._check(_lib.emilia_play(self._handle(), move))

    def undo(self):
        self._check(_lib.emilia_undo(self._handle()))

    # -- searching -------------------------------------------------------
    @staticmethod
    def _limits(depth=0, move_time=0.0, nodes=0, time_left=None, increment=0.0, moves_to_go=0,
                multipv=0, infinite=False):
        lim = _Limits()
        _lib.emilia_limits_init(ctypes.byref(lim))
        lim.depth, lim.move_time, lim.nodes = depth, move_time, nodes
        lim.time_left = -1.0 if time_left is None else time_left
        lim.increment, lim.moves_to_go = increment, moves_to_go
        lim.multipv, lim.infinite = multipv, int(bool(infinite))
        return lim

    @staticmethod
    def _callback(callback):
        if callback is None:
            return _INFO_FN()
        return _INFO_FN(lambda p, user: callback(_info(p.contents)))

    def search(self, callback=None, **limits):
        """The best move.  limits: depth, move_time, nodes, time_left,
        increment, moves_to_go, multipv, infinite; callback(Info) after
        each iteration."""
        lim = self._limits(**limits)
        fn = self._callback(callback)
        out = _Info()
        self._check(_lib.emilia_search(self._handle(), ctypes.byref(lim), fn, None, ctypes.byref(out)))
        return _info(out)

    def analyze(self, lines, callback=None, **limits):
        """The `lines` best moves, best first, as a list of Info."""
        lim = self._limits(**limits)
        fn = self._callback(callback)
        out = (_Info * max(lines, 1))()
        n = ctypes.c_int()
        self._check(_lib.emilia_analyze(self._handle(), ctypes.byref(lim), lines, fn, None, out,
                                        ctypes.byref(n)))
        return [_info(out[i]) for i in range(n.value)]

    def stop(self):
        """Stop the running search from another thread; returns once it has returned."""
        if self._e:
            _lib.emilia_stop(self._e)

    def solve(self, wld=False, **limits):
        """Solve to the end: Info with the exact score (wld: 1, 0 or -1)."""
        lim = self._limits(**limits)
        out = _Info()
        self._check(_lib.emilia_solve(self._handle(), int(bool(wld)), ctypes.byref(lim), ctypes.byref(out)))
        return _info(out)

    def evaluate(self):
        """The static evaluation in discs for the side to move."""
        s = ctypes.c_int()
        self._check(_lib.emilia_evaluate(self._handle(), ctypes.byref(s)))
        return s.value

    def perft(self, depth):
        n = ctypes.c_uint64()
        self._check(_lib.emilia_perft(self._handle(), depth, ctypes.byref(n)))
        return n.value
