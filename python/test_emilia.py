"""Tests of the ctypes binding (python/emilia.py): `python3 -m unittest` in
python/ (make test runs them with EMILIA_LIB set to the build's library)."""

import threading
import time
import unittest

import emilia

FFO1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"


class TestEmilia(unittest.TestCase):
    def setUp(self):
        self.e = emilia.Engine(threads=2, hash_mb=16, use_book=False)

    def tearDown(self):
        self.e.close()

    def test_version(self):
        self.assertEqual(emilia.version(), "0.1.0")
        self.assertIn(emilia.kernel(), ("avx2", "portable"))
        self.assertEqual(emilia.move_name(37), "f5")
        self.assertEqual(emilia.parse_move("F5"), 37)
        self.assertEqual(emilia.parse_move("pass"), 64)
        with self.assertRaises(ValueError):
            emilia.parse_move("z9")

    def test_perft(self):
        self.assertEqual(self.e.perft(8), 390216)

    def test_solve_ffo1(self):
        self.e.set_obf(FFO1)
        r = self.e.solve()
        self.assertEqual((r.move, r.score, r.exact), ("g8", 18, True))
        self.assertEqual(self.e.solve(wld=True).score, 1)
        self.assertGreater(self.e.evaluate(), 0)

    def test_position_and_errors(self):
        self.assertEqual(self.e.legal_moves(), ["d3", "c4", "f5", "e6"])
        self.e.play("f5")
        self.e.play(emilia.parse_move("d6"))
        self.assertEqual(self.e.transcript, "f5d6")
        self.assertEqual(self.e.side_to_move, emilia.BLACK)
        before = self.e.obf
        with self.assertRaises(emilia.EmiliaError) as cm:
            self.e.play("a1")
        self.assertEqual(cm.exception.status, "EMILIA_ERR_ILLEGAL")
        self.assertIn("a1", cm.exception.message)
        with self.assertRaises(emilia.EmiliaError) as cm:
            self.e.set_transcript("f5zz")
        self.assertEqual(cm.exception.status, "EMILIA_ERR_PARSE")
        with self.assertRaises(emilia.EmiliaError) as cm:
            self.e.set_obf("XO- X")
        self.assertEqual(cm.exception.status, "EMILIA_ERR_PARSE")
        self.assertEqual(self.e.obf, before)
        self.e.undo()
        self.e.undo()
        with self.assertRaises(emilia.EmiliaError) as cm:
            self.e.undo()
        self.assertEqual(cm.exception.status, "EMILIA_ERR_NO_UNDO")
        self.assertEqual(self.e.discs(), (2, 2))
        self.assertFalse(self.e.is_game_over())
        with self.assertRaises(emilia.EmiliaError) as cm:
            emilia.Engine(book="/nonexistent/x.book")
        self.assertEqual(cm.exception.status, "EMILIA_ERR_FILE")
        with self.assertRaises(emilia.EmiliaError):
            self.e.set_level(99)

    def test_search_and_analyze(self):
        self.e.set_transcript("f5d6c3")
        seen = []
        r = self.e.search(depth=5, callback=seen.append)
        self.assertEqual(r.depth, 5)
        self.assertIn(r.move, self.e.legal_moves())
        self.assertEqual([i.depth for i in seen], [1, 2, 3, 4, 5])
        lines = self.e.analyze(3, depth=4)
        self.assertEqual(len(lines), 3)
        self.assertEqual([i.multipv_index for i in lines], [1, 2, 3])
        self.assertEqual(len({i.move for i in lines}), 3)
        scores = [i.score for i in lines]
        self.assertEqual(scores, sorted(scores, reverse=True))

    def test_stop_from_another_thread(self):
        results = []
        t = threading.Thread(target=lambda: results.append(self.e.search(infinite=True)))
        t.start()
        time.sleep(0.1)
        while t.is_alive():
            self.e.stop()
            t.join(0.05)
        self.assertEqual(len(results), 1)
        self.assertIn(results[0].move, self.e.legal_moves())


if __name__ == "__main__":
    unittest.main()
