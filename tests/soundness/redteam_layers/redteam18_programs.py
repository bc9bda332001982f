"""Red team 18 (issue 18's own red-team step): hostile programs over the generative test layer.

``PROGRAMS`` maps a name to (guarantees, body of main), rendered with the generator's header. Family
tags: f1 loop facts, f2 zero-iteration bindings, f3 positions over sets/dicts with repeats, f4 ordering
on wrong kinds, f5 unhashable values behind ``object``, f6 constant folding; o* families of our own.
Most guarantees are false on purpose, or guard a door around an operation that may raise: a sound
prover must not prove them, or a proved one must run clean.
"""

from __future__ import annotations

L = 'g.locked_at_end("front")'


def u(body: str) -> str:
    """Unlock, do something that may raise, lock again: proved means the middle never raises."""
    return 'unlock("front")\n' + body.strip("\n") + '\nlock("front")'


PROGRAMS: dict[str, tuple[str, str]] = {
    # ---- family 1: loop facts from too few iterations / type changes
    "f1_tuple_swap_types": (L, u('a, b = 1, "x"\nfor i in range(3):\n    pay(0)\n    a, b = b, a\nk = a + 1')),
    "f1_list_elem_type_change": (L, u('xs = [1]\nfor i in range(3):\n    y = xs[0]\n    k = y + 1\n    xs = ["a"]')),
    "f1_nested_loop_change": (L, u('a = 1\nb = 1\nfor i in range(2):\n    for j in range(2):\n        k = b + 1\n        b = a\n        a = "s"')),
    "f1_dict_get_none_later": ("g.max_pay(5)", 'd = {"a": 1}\nfor i in range(3):\n    x = d.get("a")\n    d = {}\n    if x is not None:\n        pay(x)\n    pay(x or 0)'),
    "f1_int_to_float_str": ("g.never_to('0.25')", 'x = 1\nfor i in range(3):\n    send(str(x), 1)\n    x = x / 2'),
    "f1_chain_nine": (L, u('a0 = 1\na1 = 1\na2 = 1\na3 = 1\na4 = 1\na5 = 1\na6 = 1\na7 = 1\na8 = 1\na9 = 1\nfor i in range(12):\n    k = a9 + 1\n    a9 = a8\n    a8 = a7\n    a7 = a6\n    a6 = a5\n    a5 = a4\n    a4 = a3\n    a3 = a2\n    a2 = a1\n    a1 = a0\n    a0 = "z"')),
    "f1_comp_in_loop_change": (L, u('xs = [1, 2]\nfor i in range(2):\n    ys = [x + 1 for x in xs]\n    xs = ["a"]')),
    "f1_bool_to_int_str": ("g.never_to('2')", 'x = True\nfor i in range(2):\n    x = x + 1\nsend(str(x), 1)'),
    "f1_len_grows_in_loop": ("g.max_pay(3)", 'xs = []\nfor i in range(3):\n    xs = xs + xs + [1]\npay(len(xs))'),
    # ---- family 2: names bound only in a loop that may run zero times
    "f2_continue_before_bind": (L, u('for i in range(3):\n    if i >= 0:\n        continue\n    y = i\npay(y)')),
    "f2_nested_range_i": (L, u('for i in range(2):\n    for j in range(i):\n        y = j\n    pay(y)')),
    "f2_range_neg_step": (L, u('for i in range(0, 3, -1):\n    y = i\npay(y)')),
    "f2_range_empty_const": (L, u('for i in range(5, 2):\n    y = i\npay(y)')),
    "f2_slice_of_literal": (L, u('for x in [1][1:]:\n    y = x\npay(y)')),
    "f2_split_empty": (L, u('for x in "".split():\n    y = x\nsend(y, 1)')),
    "f2_zip_short": (L, u('for a in zip([1, 2], []):\n    y = a\npay(0)\nk = y')),
    "f2_list_times_int": (L, u('for x in [1, 2] * read_int("k"):\n    y = x\npay(y)')),
    "f2_reversed_empty_slice": (L, u('for x in reversed([1, 2, 3][3:]):\n    y = x\npay(y)')),
    "f2_dict_popped": (L, u('d = {"a": 1}\nd.pop("a")\nfor k in d:\n    y = k\nsend(y, 1)')),
    "f2_set_literal_repeats_zero": (L, u('s = {1}\ns.discard(1)\nfor x in s:\n    y = x\npay(y)')),
    "f2_range_times_step": (L, u('for i in range(0, 10, 20)[1:]:\n    y = i\npay(y)')),
    "f2_return_in_if_bind": (L, u('for i in range(3):\n    if read_flag("a"):\n        y = 1\n        break\npay(y)')),
    # ---- family 3: positions over sets with repeats / dicts with overwritten keys
    "f3_set_bool_int_float_repeat": ("g.max_pay(1)", 'for i, v in enumerate({1, True, 1.0, 2}):\n    pay(i)'),
    "f3_set_zero_forms": ("g.pays_at_most(1)", 's = {0, -0.0, False}\nfor v in s:\n    pay(0)'),
    "f3_unpack_set_repeat": (L, u('a, b, c = {1, 1, 2}')),
    "f3_unpack_dict_overwrite": (L, u('a, b = {"a": 1, "a": 2}')),
    "f3_dict_comp_overwrite_values": ("g.max_pay(3)", 'd = {x % 2: x for x in range(5)}\npay(list(d.values())[0])'),
    "f3_dict_pop_reinsert_order": ("g.never_to('a')", 'd = {"a": 1, "b": 2}\nd.pop("a")\nd["a"] = 3\nsend(list(d)[0], 1)'),
    "f3_set_discard_readd_order": ("g.max_pay(1)", 's = {1, 2}\ns.discard(1)\ns.add(1)\npay(list(s)[0])'),
    "f3_zip_over_set_repeat": ("g.max_pay(1)", 'for i, v in zip(range(10), {5, 5, 5, 6}):\n    pay(i)'),
    "f3_set_comp_mod_index": ("g.pays_at_most(2)", 's = {x % 2 for x in range(5)}\nfor i, v in enumerate(s):\n    pay(i)'),
    "f3_set_of_trusted_list_len": (L, u('s = set(read_list("k"))\nxs = [0, 0, 0]\nk = xs[len(s) - 1] if len(s) > 0 else 0')),
    "f3_dict_key_one_true": ("g.never_to('True')", 'd = {1: "x", True: "y"}\nsend(str(list(d)[0]), 1)'),
    "f3_index_in_set_list": ("g.max_pay(1)", 'xs = list({3, 3, 4})\npay(xs.index(4))'),
    "f3_nan_set_len": ("g.pays_at_most(1)", 's = {float("nan"), float("nan")}\nfor v in s:\n    pay(0)'),
    "f3_dict_update_overwrite": ("g.max_pay(2)", 'd = {"a": 1, "b": 2}\nd.update({"a": 9})\npay(list(d.values())[1])'),
    # ---- family 4: ordering on the wrong kinds
    "f4_sorted_sets": (L, u('xs = sorted([{1}, {2}])')),
    "f4_max_of_sets": (L, u('x = max({1}, {2})')),
    "f4_tuple_list_nested": (L, u('x = [(1, [2])] < [(1, (2,))]')),
    "f4_sorted_mixed_pairs": (L, u('xs = sorted([(1, [2]), (1, (2,))])')),
    "f4_sorted_with_none": (L, u('xs = sorted([1, None])')),
    "f4_min_dicts": (L, u('x = min([{"a": 1}, {"a": 2}])')),
    "f4_chain_set": (L, u('x = 1 < 2 < len({3})\ny = {1} <= {1, 2}')),
    "f4_sorted_dict_keys_mixed": (L, u('xs = sorted({1: 0, "a": 0})')),
    "f4_max_key_set": (L, u('x = max([1, 2], key=lambda v: {v})')),
    "f4_sorted_nested_lists_str_int": (L, u('xs = sorted([[1, 2], [1, "a"]])')),
    # ---- family 5: unhashable values behind an object-typed element
    "f5_dict_comp_keys": (L, u('xs = [1, ["x"]]\nd = {x: 1 for x in xs}')),
    "f5_fromkeys": (L, u('xs = [1, ["x"]]\nd = dict.fromkeys(xs)')),
    "f5_set_of_zip": (L, u('xs = [1, ["x"]]\ns = set(zip(xs, xs))')),
    "f5_pick_helper_key": (L, u('k = pick(read_flag("c"), 1, [2])\ns = {k}')),
    "f5_ternary_key": (L, u('k = 1 if read_flag("c") else [2]\nd = {}\nd[k] = 1')),
    "f5_setdefault": (L, u('xs = [1, ["x"]]\nd = {}\nd.setdefault(xs[1], 0)')),
    "f5_set_update": (L, u('xs = [1, ["x"]]\ns = set()\ns.update(xs)')),
    "f5_union_op": (L, u('xs = [1, ["x"]]\ns = {1} | set(xs)')),
    "f5_dict_of_enumerate": (L, u('xs = [1, ["x"]]\nd = dict(enumerate(xs))\ne = {v: k for k, v in d.items()}')),
    "f5_ident_key": (L, u('k = ident([1])\nd = {k: 1}')),
    "f5_remove_list": (L, u('xs = [1, ["x"]]\ns = {1}\ns.discard(xs[1])\ns.remove(xs[1])')),
    # ---- family 6: constant folding / prover crashes
    "f6_float_of_huge": (L, u('x = float(1 << 1100)')),
    "f6_huge_times_float": (L, u('x = (1 << 1100) * 1.0')),
    "f6_huge_plus_half": (L, u('x = (10 ** 400) + 0.5')),
    "f6_huge_floordiv_float": (L, u('x = (10 ** 400) // 1.5')),
    "f6_huge_mod_float": (L, u('x = (10 ** 400) % 1.5')),
    "f6_floordiv_zero_float": (L, u('x = 1.5 // 0.0')),
    "f6_mod_negzero": (L, u('x = -0.0 % 0.0')),
    "f6_zero_pow_neg": (L, u('x = 0.0 ** -1')),
    "f6_neg_pow_frac": (L, u('x = (-8.0) ** (1 / 3)')),
    "f6_fmt_huge_f": (L, u('t = f"{10 ** 400:.2f}"')),
    "f6_fmt_width_huge": (L, u('t = f"{1:99999999999999999999}"')),
    "f6_round_huge_digits": (L, u('x = round(1.5, 10 ** 6)\ny = round(1.5, -400)\nz = round(5e-324, 400)')),
    "f6_round_17e308": (L, u('x = round(1.7e308, -308)')),
    "f6_int_inf": (L, u('x = int(float("inf"))')),
    "f6_int_nan": (L, u('x = int(float("nan"))')),
    "f6_floor_big_float": (L, u('x = math.floor(1e308 * 10)')),
    "f6_sqrt_neg": (L, u('x = math.sqrt(-1.0)')),
    "f6_int_over_huge": ("g.max_pay(0)", 'x = 1 / (1 << 1100)\npay(int(x))'),
    "f6_huge_div_huge": ("g.max_pay(2)", 'x = (1 << 1100) / (1 << 1099)\npay(int(x))'),
    "f6_int_parse_4301": (L, u('x = int(str(10 ** 4300))')),
    "f6_fmt_bool_width": ("g.never_to('    1')", 'send(f"{True:>5}", 1)'),
    "f6_fmt_bool_f": ("g.never_to('1.00')", 'send(f"{True:.2f}", 1)'),
    "f6_fmt_negzero": ("g.never_to('-0')", 'send(f"{-0.0:.0f}", 1)'),
    "f6_fmt_inf_zero_pad": ("g.never_to('00inf')", 'send(f"{float(\'inf\'):05}", 1)'),
    "f6_round_neg_half": ("g.never_to('-0.0')", 'send(str(round(-0.4, 0)), 1)'),
    # ---- o1: unpacking, slicing, indexing edges
    "o1_unpack_trusted_list": (L, u('a, b = read_list("k")')),
    "o1_star_unpack_empty": (L, u('a, *b = read_list("k")')),
    "o1_slice_step_zero": (L, u('xs = [1, 2, 3][::read_int("k")]')),
    "o1_len_range_huge": (L, u('n = len(range(1 << 70))')),
    "o1_index_huge": (L, u('x = [1, 2][1 << 70]')),
    "o1_range_index": (L, u('x = range(read_int("k"))[5]')),
    "o1_pop_empty": (L, u('xs = read_list("k")\nx = xs.pop()')),
    "o1_remove_missing": (L, u('xs = [1, 2]\nxs.remove(read_int("k"))')),
    "o1_partition_empty": (L, u('x = "a".partition("")')),
    "o1_str_index_missing": (L, u('x = read_str("k").index("b")')),
    "o1_range_step_zero": (L, u('xs = list(range(0, 10, read_int("k")))')),
    "o1_huge_neg_step": ("g.never_to('c')", 'send("abc"[::-(1 << 70)], 1)'),
    "o1_unpack_dict_keys_str": (L, u('for a, b in {"ab": 1, "cde": 2}:\n    pay(0)')),
    # ---- o2: membership / truthiness / assert / bool as int
    "o2_int_in_str": (L, u('x = 1 in "abc"')),
    "o2_none_in_str": (L, u('x = None in read_str("k")')),
    "o2_assert_trusted": (L, u('assert read_flag("k")')),
    "o2_assert_len": (L, u('xs = read_list("k")\nassert len(xs) > 0\nx = xs[0]')),
    "o2_bool_index": ("g.max_pay(1)", 'pay([1, 2][True])'),
    "o2_bool_sum": ("g.max_pay(1)", 'pay(sum([True, True]))'),
    "o2_str_times_bool": ("g.never_to('ab')", 'send("ab" * True, 1)'),
    "o2_max_negzero": ("g.never_to('-0.0')", 'send(str(max(-0.0, 0.0)), 1)'),
    "o2_nan_max_first": ("g.notes_are_numbers()", 'note(max(float("nan"), 1.0))'),
    "o2_sorted_nan": ("g.never_to('[1.0, nan, 0.0]')", 'send(str(sorted([1.0, float("nan"), 0.0])), 1)'),
    "o2_and_or_values": ("g.max_pay(2)", 'pay([] and 3 or 5)'),
    "o2_neg_floor_mod": ("g.max_pay(0)", 'pay(-7 % 2 - 1)\npay(7 % -2 + 1)\npay(-7 // 2 + 4)'),
    "o2_chain_side_effect": ("g.pays_at_most(2)", 'x = pay_and_count(1) < pay_and_count(2) < pay_and_count(3)'),
    "o2_dict_negzero_key": ("g.never_to('0.0')", 'd = {0.0: 1, -0.0: 2}\nsend(str(list(d)[0]), 1)'),
    "o2_min_default_empty": (L, u('x = min(read_list("k"))')),
    "o2_join_set": ("g.never_to('a,b')", 'send(",".join({"a", "a", "b"}), 1)'),
    "o2_contacts_repeat": ("g.pays_at_most(3)", 'for c in contacts():\n    pay(0)'),
    "o2_reversed_set": (L, u('xs = list(reversed({1, 2}))')),
    "o2_str_repeat_neg": ("g.never_to('')", 'send("ab" * -3, 1)'),
}

HELPERS = '''
def last_of(xs):
    for x in xs:
        y = x
    return y


def twice(x, k=2):
    return x * k


def first_pos(xs, v):
    for i, x in enumerate(xs):
        if x == v:
            return i
    return -1

'''

PROGRAMS2: dict[str, tuple[str, str]] = {
    # family 2 through a helper: the helper's loop may run zero times
    "f2_helper_loop_zero": (L, u('x = last_of(read_list("k"))\npay(0)')),
    "f2_helper_loop_zero_lit": (L, u('x = last_of([])')),
    "f2_if_raise_path": (L, u('if read_int("k") > 5:\n    raise ValueError("big")')),
    "f2_for_over_enumerate_empty": (L, u('for i, v in enumerate(read_list("k")):\n    y = v\nk = y')),
    # family 3 through dict()/set()/tuple() of repeats
    "f3_dict_from_pairs_overwrite": ("g.pays_at_most(1)", 'd = dict([("a", 1), ("a", 2)])\nfor k in d:\n    pay(0)\npay(len(d) - 1)'),
    "f3_dict_from_pairs_value": ("g.max_pay(1)", 'd = dict([("a", 1), ("b", 5), ("a", 2)])\npay(list(d.values())[0])'),
    "f3_set_of_str_repeat": ("g.max_pay(1)", 'for i, c in enumerate(set("aab")):\n    pay(i)'),
    "f3_tuple_of_set_len": (L, u('t = tuple({1, 1, 2})\nk = [0, 0][len(t) - 1]')),
    "f3_sum_set_mixed_equal": ("g.max_pay(0)", 'pay(int(sum({1, 1.0, True})) - 1)'),
    "f3_items_after_overwrite": ("g.never_to('1')", 'd = {"a": 1, "b": 2, "a": 3}\nsend(str(list(d.items())[0][1]), 1)'),
    "f3_enumerate_dict_start": ("g.max_pay(2)", 'd = {"a": 1, "b": 2, "a": 3}\nfor i, k in enumerate(d, 1):\n    pay(i)'),
    "f3_join_dict_overwrite": ("g.never_to('a,b')", 'd = {"a": 1, "b": 2, "a": 3}\nsend(",".join(d), 1)'),
    "f3_set_add_repeats_index": ("g.max_pay(1)", 's = set()\nfor x in [2, 2, 3]:\n    s.add(x)\nfor i, v in enumerate(s):\n    pay(i)'),
    "f3_list_index_of_set_list": ("g.max_pay(0)", 'xs = list({5, 5.0, 6})\npay(xs.index(6) - 1)'),
    "f3_enumerate_start_bool": ("g.never_to('True')", 'for i, c in enumerate("ab", True):\n    send(str(i), 1)'),
    "f3_trusted_set_enumerate": ("g.max_pay(3)", 'for i, v in enumerate(read_set("k")):\n    pay(i)'),
    "f3_trusted_dict_index": ("g.max_pay(3)", 'for i, k in enumerate(read_dict("k")):\n    pay(i)'),
    # family 4
    "f4_min_sets_args": (L, u('x = min([{1}, {2}])')),
    "f4_max_none_opt": (L, u('x = max([1, 2].index(1), 0)\ny = max([[1], [2]])\nz = max([(1,), (2,)])')),
    "f4_tuple_vs_list_eq_ok": ("g.max_pay(0)", 'if (1,) == [1]:\n    pay(1)'),
    "f4_str_lt_int_list": (L, u('x = ["a"] < [1]')),
    # family 5
    "f5_set_of_list_elems": (L, u('xs = [[1], [2]]\ns = set(xs)')),
    "f5_dict_of_pairs_unhashable": (L, u('xs = [1, ["x"]]\nd = dict([(xs[1], 1)])')),
    "f5_in_set_object": ("g.max_pay(0)", 'xs = [1, ["x"]]\nif xs[1] in {1, 2}:\n    pay(1)'),
    "f5_dict_get_object": ("g.max_pay(0)", 'xs = [1, ["x"]]\nd = {1: 5}\npay(d.get(xs[1], 0))'),
    "f5_count_object": ("g.max_pay(1)", 'xs = [1, ["x"], ["x"]]\npay(xs.count(["x"]))'),
    # family 6
    "f6_sum_huge_float": (L, u('x = sum([1 << 1100, 0.5])')),
    "f6_sum_start_huge": (L, u('x = sum([0.5], 1 << 1100)')),
    "f6_max_huge_plus": (L, u('x = max(1 << 1100, 1.0) + 1.0')),
    "f6_huge_div_one_float": (L, u('x = (10 ** 309) / 1.0')),
    "f6_trunc_inf": (L, u('x = math.trunc(float("inf"))')),
    "f6_ceil_nan": (L, u('x = math.ceil(float("nan"))')),
    "f6_round_inf_digits_ok": ("g.notes_are_numbers()", 'note(round(float("inf"), 2))'),
    "f6_round_nan_digits": ("g.notes_are_numbers()", 'note(round(float("nan"), 0))'),
    "f6_chr_big": (L, u('x = chr(1114112)')),
    "f6_ord_empty": (L, u('x = ord(read_str("k"))')),
    "f6_neg_sqrt_pow": (L, u('x = (-1.0) ** 0.5')),
    "f6_round_bool": ("g.never_to('True')", 'send(str(round(True)), 1)'),
    "f6_round_int_neg": ("g.max_pay(10)", 'pay(round(25, -1))'),
    "f6_unary_plus_bool": ("g.never_to('True')", 'send(str(+True), 1)'),
    "f6_abs_bool": ("g.never_to('True')", 'send(str(abs(True)), 1)'),
    "f6_bool_pow": ("g.never_to('True')", 'send(str(True ** 2), 1)'),
    "f6_bool_floordiv": ("g.never_to('True')", 'send(str(True // 1), 1)'),
    "f6_shift_neg_var": (L, u('x = 1 << (read_int("k") - 5)')),
    "f6_int_float_huge_text": (L, u('x = int(float("1e400"))')),
    "f6_float_text_underscore": ("g.notes_below(10.0)", 'note(float("1_0.5"))'),
    "f6_int_text_unicode": ("g.max_pay(2)", 'pay(int("\\u0663"))'),
    "f6_int_text_spaces": ("g.max_pay(0)", 'pay(int(" 1_0 "))'),
    "f6_min_negzero_int": ("g.never_to('-0.0')", 'send(str(max(-0.0, 0)), 1)'),
    "f6_min_bool_int": ("g.never_to('True')", 'send(str(min(True, 1)), 1)'),
    # own: str.find edges, helpers with defaults
    "o3_find_empty_past_end": ("g.max_pay(2)", 'pay("abc".find("", 4) + 3)'),
    "o3_index_empty_past_end": (L, u('x = "abc".index("", 4)')),
    "o3_find_neg_start": ("g.max_pay(1)", 'pay("abc".find("c", -1))'),
    "o3_find_unknown_start": (L, u('x = [1, 2, 3, 4, 5][read_str("k").find("", read_int("j"))]')),
    "o3_split_sep_len": (L, u('xs = read_str("k").split(",")\nx = xs[0]')),
    "o3_split_sep_len2": (L, u('xs = read_str("k").split(",")\nx = xs[1]')),
    "o3_default_arg_str": (L, u('x = twice("a") + 1')),
    "o3_default_arg_int": ("g.max_pay(3)", 'pay(twice(2))'),
    "o3_first_pos_nan": ("g.max_pay(-1)", 'pay(first_pos([float("nan")], float("nan")) + 1)'),
    "o3_list_index_nan": (L, u('x = [float("nan")].index(float("nan"))')),
    "o3_count_negzero": ("g.max_pay(0)", 'pay([0.0, -0.0, False].count(0))'),
    "o3_str_count_empty": ("g.max_pay(3)", 'pay("abc".count(""))'),
    "o3_replace_empty": ("g.never_to('-a-b-')", 'send("ab".replace("", "-"), 1)'),
    "o3_strip_unicode_space": ("g.never_to('a')", 'send("\\u2003a".strip(), 1)'),
    "o3_upper_eszett": ("g.never_to('SS')", 'send("ß".upper(), 1)'),
    "o3_isdigit_superscript": ("g.max_pay(0)", 'if "²".isdigit():\n    pay(1)'),
    "o3_int_of_superscript": (L, u('x = int("²")')),
    "o3_split_none_unicode": ("g.max_pay(1)", 'pay(len("a\\u2003b".split()))'),
}

A = "g.all_locked_at_end()"

PROGRAMS3: dict[str, tuple[str, str]] = {
    # own: door keys computed two ways that differ on some values (the end state is judged by ==)
    "d_float_plus_zero": (A, 'x = read_float("x")\nunlock(str(x))\nlock(str(x + 0.0))'),
    "d_float_zero_plus": (A, 'x = read_float("x")\nunlock(str(x))\nlock(str(0.0 + x))'),
    "d_float_minus_zero": (A, 'x = read_float("x")\nunlock(str(x))\nlock(str(x - 0.0))'),
    "d_float_abs": (A, 'x = read_float("x")\nunlock(str(x))\nlock(str(abs(x)))'),
    "d_big_int_float_int": (A, 'n = read_big("k")\nunlock(str(n))\nlock(str(int(float(n))))'),
    "d_str_slice2": (A, 's = read_str("k")\nunlock(s)\nlock(s[:2])'),
    "d_str_slice3": (A, 's = read_str("k")\nunlock(s)\nlock(s[:3])'),
    "d_str_pad": (A, 's = read_str("k")\nunlock(s)\nlock(f"{s:>3}")'),
    "d_str_strip": (A, 's = read_str("k")\nunlock(s)\nlock(s.strip())'),
    "d_str_lower": (A, 's = read_str("k")\nunlock(s)\nlock(s.lower())'),
    "d_bool_plus_zero": (A, 'b = read_flag("k")\nunlock(str(b))\nlock(str(b + 0))'),
    "d_bool_and_true": (A, 'b = read_flag("k")\nunlock(str(b))\nlock(str(b & True))'),
    "d_int_or_false": (A, 'n = read_int("k")\nunlock(str(n))\nlock(str(n if n else False))'),
    "d_max_false_first": (A, 'n = read_int("k")\nunlock(str(n))\nlock(str(max(False, n)))'),
    "d_max_n_first": (A, 'n = read_int("k")\nunlock(str(n))\nlock(str(max(n, False)))'),
    "d_min_true_first": (A, 'n = read_int("k")\nunlock(str(n))\nlock(str(min(True, n)))'),
    "d_sum_false_start": (A, 'n = read_int("k")\nunlock(str(n))\nlock(str(sum([n], False)))'),
    "d_unlock_code_gt3": (L, 'if unlock("front") > 3:\n    lock("front")'),
    "d_lock_trusted_names": (L, 'unlock("front")\nfor d in read_strs("k"):\n    lock(d)'),
    "d_unlock_trusted_names": (L, 'for d in read_strs("k"):\n    unlock(d)'),
    "d_ifexp_door": (L, 'unlock("front")\nlock("front" if read_flag("a") else "back")'),
    "d_comp_lock": (L, 'unlock("front")\nxs = [lock(d) for d in ["front"] if read_flag("x")]'),
    "d_float_round_text": (A, 'x = read_float("x")\nunlock(f"{x}")\nlock(str(x))'),
    "d_float_neg_neg": (A, 'x = read_float("x")\nunlock(str(x))\nlock(str(-(-x)))'),
    "d_float_times_one": (A, 'x = read_float("x")\nunlock(str(x))\nlock(str(x * 1))'),
    "d_float_min_self": (A, 'x = read_float("x")\nunlock(str(x))\nlock(str(min(x, x + 0.0)))'),
    "d_float_max_zero": (A, 'x = read_float("x")\nunlock(str(x))\nlock(str(max(x, -0.0) if x == 0 else x))'),
    "d_int_floordiv": (A, 'n = read_big("k")\nunlock(str(n))\nlock(str(n // 1))'),
    "d_int_true_div": (A, 'n = read_int("k")\nunlock(str(n * 1.0))\nlock(str(n / 1))'),
    "d_float_floor_text": (A, 'x = read_float("x")\nif not math.isinf(x) and x == x:\n    unlock(str(math.floor(x)))\n    lock(str(int(x)))'),
    "d_round_text": (A, 'x = read_float("x")\nif not math.isinf(x) and x == x:\n    unlock(str(round(x)))\n    lock(str(int(x + 0.5)))'),
    "d_str_of_list_floats": (A, 'xs = read_floats("k")\nunlock(str(xs))\nlock(str([x + 0.0 for x in xs]))'),
    "d_str_of_dict": (A, 'd = read_dict("k")\nunlock(str(d))\nlock(str(dict(d.items())))'),
    "d_set_text": (A, 's = read_set("k")\nunlock(str(list(s)))\nlock(str(list(set(list(s)))))'),
    "d_str_join_split": (A, 's = read_str("k")\nunlock(s)\nlock(" ".join(s.split()))'),
    "d_int_text_roundtrip": (A, 's = read_str("k")\nif s.isdigit():\n    unlock(s)\n    lock(str(int(s)))'),
}

PROGRAMS4: dict[str, tuple[str, str]] = {
    "f2_comp_var_does_not_leak": (L, u('ys = [x for x in [1, 2]]\npay(x)')),
    "f2_comp_var_restored": ("g.max_pay(5)", 'x = 5\nys = [x for x in [1, 2]]\npay(x)'),
    "f2_loop_var_after_empty": (L, u('for x in []:\n    pay(0)\npay(x)')),
    "f2_loop_var_after_trusted": (L, u('for x in read_list("k"):\n    pay(0)\npay(x)')),
    "f2_bind_in_one_branch_return": (L, u('if read_flag("a"):\n    y = 1\nelse:\n    lock("front")\npay(y)')),
    "f3_dict_setitem_equal_keys": ("g.never_to('True')", 'd = {1: "a"}\nd[True] = "b"\nd[1.0] = "c"\nsend(str(list(d)[0]), 1)'),
    "f3_dict_setitem_equal_len": ("g.pays_at_most(1)", 'd = {1: "a"}\nd[True] = "b"\nd[1.0] = "c"\nfor k in d:\n    pay(0)\npay(len(d) - 1)'),
    "f3_set_add_true_text": ("g.never_to('[1]')", 's = {1}\ns.add(True)\nsend(str(list(s)), 1)'),
    "f3_dict_literal_text": ("g.never_to(\"{True: 2}\")", 'd = {True: 1, 1: 2}\nsend(str(d), 1)'),
    "f3_dict_get_float_key": ("g.max_pay(1)", 'd = {1: 7}\npay(d.get(1.0, 0))'),
    "f3_values_index": ("g.max_pay(0)", 'd = {"a": 1, "b": 2, "a": 2}\npay(list(d.values()).index(2))'),
    "f3_enumerate_values_after_setitem": ("g.max_pay(1)", 'd = {"a": 1, "b": 2}\nd["a"] = 5\nfor i, v in enumerate(d.values()):\n    pay(i)'),
    "f3_list_of_set_repeat_nan": ("g.pays_at_most(1)", 'n = float("nan")\ns = {n, n}\nfor v in s:\n    pay(0)'),
    "f4_tuple_none_first_differs": ("g.max_pay(0)", 'if (1, None) < (2, None):\n    pay(0)'),
    "f4_tuple_none_equal_tail": (L, u('x = (1, None) < (1, 2)')),
    "f4_max_tuples_mixed": (L, u('x = max([(1, "a"), (1, 2)])')),
    "f5_tuple_key_object": (L, u('xs = [1, ["x"]]\nd = {}\nd[(1, xs[1])] = 1')),
    "f5_in_dict_object": ("g.max_pay(0)", 'xs = [1, ["x"]]\nif xs[1] in {1: 0}:\n    pay(1)'),
    "o4_helper_raise": (L, u('x = checked(read_int("k"))')),
    "o4_helper_early_return_door": (L, 'x = door_dance(read_flag("a"))'),
    "o4_nested_def": (L, u('def inner(v):\n    return [1][v]\nx = inner(read_int("k"))')),
}

HELPERS4 = '''
def checked(n):
    if n > 3:
        raise ValueError("too big")
    return n


def door_dance(c):
    unlock("front")
    if c:
        return 1
    lock("front")
    return 0

'''

HEADER5_EXTRA = "from tools.gen.trusted.effects import read_opt\n"

PROGRAMS5: dict[str, tuple[str, str]] = {
    "f1_narrowing_lost_in_loop": ("g.max_pay(20)", 'y = read_opt("k")\nif y is not None:\n    for i in range(2):\n        pay(y)\n        y = read_opt("j")'),
    "f1_narrowing_loop_target": (L, u('y = read_opt("k")\nif y is not None:\n    for y in [None]:\n        pay(0)\n    k = y + 1')),
    "f1_narrow_alias": (L, u('y = read_opt("k")\nz = y\nif z is not None:\n    k = y + 1')),
    "f1_optional_flip_flop": (L, u('y = 0\nfor i in range(3):\n    k = y + 1\n    y = read_opt("k")\n    if y is None:\n        y = 1')),
    "f1_optional_flip_flop_bad": (L, u('y = 0\nfor i in range(3):\n    k = y + 1\n    y = read_opt("k")')),
    "o5_return_in_loop": (L, 'unlock("front")\nfor x in read_list("k"):\n    if x > 5:\n        return\nlock("front")'),
    "o5_break_inner_only": (L, 'unlock("front")\nfor i in range(2):\n    for j in range(2):\n        break\n    lock("front")'),
    "o5_break_outer_before_lock": (L, 'for i in range(2):\n    unlock("front")\n    if read_flag("a"):\n        break\n    lock("front")'),
    "o6_repr_single_quote": ("g.never_to('[\"it\\'s\"]')", 'send(str(["it\'s"]), 1)'),
    "o6_repr_both_quotes": ("g.never_to('[\\'a\\\\\\'b\"c\\']')", 'send(str(["a\'b\\"c"]), 1)'),
    "o6_repr_newline": ("g.never_to(\"['\\\\\\\\n']\")", 'send(str(["\\n"]), 1)'),
    "o6_repr_nul": ("g.never_to(\"['\\\\\\\\x00']\")", 'send(str(["\\x00"]), 1)'),
    "o6_repr_zwsp": ("g.never_to(\"['\\\\\\\\u200b']\")", 'send(str(["\\u200b"]), 1)'),
    "o6_repr_tuple_one": ("g.never_to(\"('a',)\")", 'send(str(("a",)), 1)'),
    "o6_repr_negzero_list": ("g.never_to('[1.0, -0.0]')", 'send(str([1.0, -0.0]), 1)'),
    "o6_repr_nan_list": ("g.never_to('[nan]')", 'send(str([float("nan")]), 1)'),
    "o6_repr_bool_list": ("g.never_to('[True]')", 'send(str([True]), 1)'),
    "o6_repr_nested_dict": ("g.never_to(\"{'a': [1]}\")", 'send(str({"a": [1]}), 1)'),
    "o6_format_true": ("g.never_to('True')", 'send("{}".format(True), 1)'),
    "o6_fstring_repr_conv": ("g.never_to(\"'a'\")", 'send(f"{\'a\'!r}", 1)'),
    "o6_repr_trusted_str": ("g.never_to(\"['']\")", 'send(str([read_str("k")]), 1)'),
    "o6_repr_trusted_strs_len": ("g.max_pay(9)", 'xs = read_strs("k")\nif len(xs) == 1 and len(xs[0]) == 1:\n    pay(len(str(xs)))'),
}

F = 'x = read_float("x")\n'

PROGRAMS6: dict[str, tuple[str, str]] = {
    # own: lengths of f-string fields of unknown floats and ints (issue 18's new length model)
    "s_f2_ok": ("g.max_pay(5)", F + 'if 0.0 <= x <= 99.0:\n    pay(len(f"{x:.2f}"))'),
    "s_f2_tight": ("g.max_pay(4)", F + 'if 0.0 <= x <= 99.0:\n    pay(len(f"{x:.2f}"))'),
    "s_f2_neg": ("g.max_pay(5)", F + 'if -99.0 <= x <= 99.0:\n    pay(len(f"{x:.2f}"))'),
    "s_f2_negzero": ("g.max_pay(4)", F + 'if -0.001 <= x <= 0.0:\n    pay(len(f"{x:.2f}"))'),
    "s_grouping": ("g.max_pay(10)", F + 'if 0.0 <= x <= 9999999.0:\n    pay(len(f"{x:,.2f}"))'),
    "s_underscore": ("g.max_pay(10)", F + 'if 0.0 <= x <= 9999999.0:\n    pay(len(f"{x:_.2f}"))'),
    "s_plus_sign": ("g.max_pay(5)", F + 'if 0.0 <= x <= 99.0:\n    pay(len(f"{x:+.2f}"))'),
    "s_space_sign": ("g.max_pay(5)", F + 'if 0.0 <= x <= 99.0:\n    pay(len(f"{x: .2f}"))'),
    "s_percent": ("g.max_pay(6)", F + 'if 0.0 <= x <= 99.0:\n    pay(len(f"{x:.2%}"))'),
    "s_exp": ("g.max_pay(8)", F + 'if 0.0 <= x <= 1e200:\n    pay(len(f"{x:.2e}"))'),
    "s_general": ("g.max_pay(4)", F + 'if 0.0 <= x <= 99.0:\n    pay(len(f"{x:.3g}"))'),
    "s_alt_zero_prec": ("g.max_pay(2)", F + 'if 0.0 <= x <= 9.0:\n    pay(len(f"{x:#.0f}"))'),
    "s_width_fill": ("g.max_pay(10)", F + 'if 0.0 <= x <= 1e12:\n    pay(len(f"{x:*>10.2f}"))'),
    "s_zero_pad": ("g.max_pay(10)", F + 'if -1e12 <= x <= 1e12:\n    pay(len(f"{x:010.2f}"))'),
    "s_float_literal_rounds_up": ("g.max_pay(19)", F + 'if 0.0 <= x <= 9999999999999999.0:\n    pay(len(f"{x:.2f}"))'),
    "s_float_literal_1e20": ("g.max_pay(23)", F + 'if 0.0 <= x <= 99999999999999999999.0:\n    pay(len(f"{x:.2f}"))'),
    "s_int_bound_float": ("g.max_pay(19)", F + 'if 0 <= x <= 9999999999999999:\n    pay(len(f"{x:.2f}"))'),
    "s_abs_bound": ("g.max_pay(5)", F + 'if abs(x) <= 99.0:\n    pay(len(f"{x:.2f}"))'),
    "s_not_gt_nan": ("g.max_pay(5)", F + 'if not (x > 99.0) and not (x < 0.0):\n    pay(len(f"{x:.2f}"))'),
    "s_inf_upper": ("g.max_pay(3)", F + 'if not (x < 99.0):\n    pay(len(f"{x:.2F}"))'),
    "s_big_precision": ("g.max_pay(102)", F + 'if 0.0 <= x <= 9.0:\n    pay(len(f"{x:.100f}"))'),
    "s_half_rounding": ("g.max_pay(4)", F + 'if 0.0 <= x <= 9.0:\n    pay(len(f"{x:.2f}"))'),
    "s_round_up_boundary": ("g.max_pay(4)", F + 'if 0.0 <= x < 9.9999:\n    pay(len(f"{x:.2f}"))'),
    "s_round_up_boundary0": ("g.max_pay(1)", F + 'if 0.0 <= x < 9.6:\n    pay(len(f"{x:.0f}"))'),
    "s_int_d": ("g.max_pay(3)", 'n = read_big("k")\nif 0 <= n <= 999:\n    pay(len(f"{n:d}"))'),
    "s_int_grouping": ("g.max_pay(4)", 'n = read_big("k")\nif 0 <= n <= 9999:\n    pay(len(f"{n:,}"))'),
    "s_int_hex": ("g.max_pay(2)", 'n = read_big("k")\nif 0 <= n <= 999:\n    pay(len(f"{n:x}"))'),
    "s_int_plus": ("g.max_pay(3)", 'n = read_big("k")\nif 0 <= n <= 999:\n    pay(len(f"{n:+d}"))'),
    "s_int_neg": ("g.max_pay(3)", 'n = read_big("k")\nif -999 <= n <= 999:\n    pay(len(f"{n:d}"))'),
    "s_int_width": ("g.max_pay(5)", 'n = read_big("k")\nif -999 <= n <= 999:\n    pay(len(f"{n:05d}"))'),
    "s_bool_d": ("g.max_pay(0)", 'b = read_flag("k")\npay(len(f"{b:d}") - 1)'),
    "s_str_width": ("g.max_pay(4)", 's = read_str("k")\npay(len(f"{s:>4}"))'),
    "s_str_prec": ("g.max_pay(1)", 's = read_str("k")\npay(len(f"{s:.1}"))'),
    "s_str_width_prec": ("g.max_pay(3)", 's = read_str("k")\npay(len(f"{s:3.1}"))'),
    "s_str_contains": ("g.never_to('ab')", 's = read_str("k")\nt = f"{s:.1}"\nif "a" in s:\n    send(t, 1)'),
    "s_param_float": ("g.max_pay(11)", 'x = read_float("x")\nif 0 <= x <= 10000:\n    pay(len(f"You {x:.2f}"))'),
    # own: nested loops over trusted lists, count model
    "n_inner_grows": ("g.pays_at_most(9)", 'xs = read_list("a")\nys = read_list("b")\nfor x in xs:\n    for y in ys:\n        pay(0)\n    ys = ys + [1]'),
    "n_inner_append": ("g.pays_at_most(9)", 'xs = read_list("a")\nys = read_list("b")\nfor x in xs:\n    for y in ys:\n        pay(0)\n    ys.append(1)'),
    "n_amount_grows": ("g.max_pay(9)", 'xs = read_list("a")\nys = read_list("b")\nk = 1\nfor x in xs:\n    for y in ys:\n        pay(k)\n        k = k + 1'),
    "n_inner_is_outer_var": ("g.pays_at_most(9)", 'xs = read_list("a")\nfor x in xs:\n    for y in xs + xs:\n        pay(0)'),
    "n_contacts_nested": ("g.pays_at_most(9)", 'cs = contacts()\nds = contacts()\nfor c in cs:\n    for d in ds:\n        pay(0)\n        pay(0)'),
    "n_three_levels": ("g.pays_at_most(26)", 'xs = read_list("a")\nfor x in xs:\n    for y in xs:\n        for z in xs:\n            pay(0)'),
    "n_messages_sum": ("g.messages_at_most(9)", 'xs = read_list("a")\nys = read_list("b")\nfor x in xs:\n    for y in ys:\n        send("a", 1)\n        send("b", 0)\n    send("c", 1)'),
    "n_inner_reads_outer_value": ("g.max_pay(30)", 'xs = read_list("a")\nys = read_list("b")\nfor x in xs:\n    for y in ys:\n        pay(x)'),
    "n_rebind_inner_list": ("g.pays_at_most(9)", 'xs = read_list("a")\nys = read_list("b")\nfor x in xs:\n    for y in ys:\n        pay(0)\n    ys = xs + ys'),
}

S = 's = read_str("s")\nk = read_int("k")\n'

PROGRAMS7: dict[str, tuple[str, str]] = {
    # own: str.find / str.index with start and end on unknown text (start past end, negative, huge)
    "t_find_empty_start_past_end": ("g.max_pay(0)", S + 'if k <= len(s):\n    if s.find("", k, 1) == -1:\n        pay(5)'),
    "t_find_empty_neg_start": ("g.max_pay(0)", S + 'if s.find("", -1) >= 0:\n    pay(5)'),
    "t_find_neg_start_char": ("g.max_pay(0)", S + 'if s.find("a", -1) >= 0:\n    pay(5)'),
    "t_find_huge_start": ("g.max_pay(0)", S + 'if s.find("", 1 << 70) >= 0:\n    pay(5)'),
    "t_find_neg_end": ("g.max_pay(0)", S + 'if s.find("a", 0, -1) >= 0:\n    pay(5)'),
    "t_find_start_gt_end_const": ("g.max_pay(0)", 'if "abc".find("", 2, 1) >= 0:\n    pay(5)'),
    "t_index_start_past_end": (L, u(S + 'x = s.index("", k, 1)')),
    "t_index_neg_end_const": (L, u('x = "abc".index("c", 1, -1)')),
    "t_find_bool_start": ("g.max_pay(0)", 'pay("abc".find("b", True) - 1)'),
    "t_find_result_vs_len": ("g.max_pay(0)", S + 'if s.find("", k) > len(s):\n    pay(5)'),
    "t_find_result_neg_start_len": ("g.max_pay(0)", S + 'if s.find("", -k) == len(s) - k and k > len(s):\n    pay(5)'),
    "t_startswith_empty": ("g.max_pay(0)", S + 'if not s.startswith(""):\n    pay(5)'),
    "t_in_empty": ("g.max_pay(0)", S + 'if not ("" in s):\n    pay(5)'),
    "t_list_index_negzero": ("g.max_pay(0)", 'pay([0.0, -0.0].index(-0.0))'),
    "t_list_index_dups": ("g.max_pay(0)", 'xs = read_list("a")\nif len(xs) == 3 and xs[0] == xs[2]:\n    pay(xs.index(xs[2]))'),
    "t_slice_neg_huge": ("g.max_pay(0)", S + 'if len(s[-(1 << 70):]) != len(s):\n    pay(5)'),
    "t_slice_bounds_swap": ("g.max_pay(0)", S + 'if len(s[k:1]) > 0 and k >= 1:\n    pay(5)'),
    "t_slice_neg_start_len": ("g.max_pay(0)", S + 'if len(s[-k:]) != min(k, len(s)) and k > 0:\n    pay(5)'),
    "t_slice_neg0": ("g.max_pay(0)", S + 'if len(s[-k:]) != len(s) and k == 0:\n    pay(5)'),
    "t_index_neg_len": (L, u(S + 'x = s[-len(s)] if len(s) > 0 else "z"')),
    "t_index_neg_len_minus1": (L, u(S + 'x = s[-len(s) - 1] if len(s) > 0 else "z"')),
    "t_list_slice_assign_len": ("g.max_pay(0)", 'xs = read_list("a")\nys = xs[1:] + xs[:1]\nif len(ys) != len(xs):\n    pay(5)'),
}

C = "g.to_contacts()"


def each(expr: str) -> str:
    return "for c in contacts():\n    send(" + expr + ", 1)"


PROGRAMS8: dict[str, tuple[str, str]] = {
    # own: provenance of a contact's address through value-preserving expressions
    "p_plus_empty": (C, each('c.email + ""')),
    "p_empty_plus": (C, each('"" + c.email')),
    "p_slice_all": (C, each("c.email[:]")),
    "p_fstring": (C, each('f"{c.email}"')),
    "p_join_one": (C, each('"".join([c.email])')),
    "p_str_call": (C, each("str(c.email)")),
    "p_ifexp_same": (C, each('c.email if c.vip else c.email')),
    "p_max_same": (C, each("max(c.email, c.email)")),
    "p_list_elem": (C, each("[c.email][0]")),
    "p_dict_elem": (C, each('{"a": c.email}["a"]')),
    "p_times_one": (C, each("c.email * 1")),
    "p_tuple_elem": (C, each("(c.email, 1)[0]")),
    "p_strip": (C, each("c.email.strip()")),
    "p_lower": (C, each("c.email.lower()")),
    "p_replace_same": (C, each('c.email.replace("a", "a")')),
    "p_or_literal": (C, each('c.email or "x"')),
    "p_and": (C, each('c.vip and c.email or c.email')),
    "p_other_contact": (C, 'cs = contacts()\nfor c in cs:\n    send(cs[0].email, 1)'),
    "p_equal_literal": (C, 'for c in contacts():\n    if c.email == "a@x":\n        send("a@x", 1)'),
    "p_get_default": (C, 'for c in contacts():\n    d = {"k": c.email}\n    send(d.get("j", c.email), 1)'),
    "p_min_list": (C, each("min([c.email, c.email + \"\"])")),
    "p_format_method": (C, each('"{}".format(c.email)')),
    "p_helper_ident": (C, each("ident(c.email)")),
    "p_helper_pick": (C, each('pick(c.vip, c.email, "x")')),
    "p_first_or": (C, 'cs = contacts()\nsend(first_or([c.email for c in cs], "nobody"), 1)'),
}

# own: helpers named like builtins, module constants shadowed or mutated, redefinition, recursion;
# (guarantee, module-level definitions, body of main)
SCOPES: dict[str, tuple[str, str, str]] = {
"sh_helper_abs": ("g.max_pay(1)", "def abs(x):\n    return x * 10\n", "pay(abs(1))"),
"sh_helper_len": ("g.max_pay(1)", "def len(x):\n    return 100\n", "pay(len([1]))"),
"sh_helper_max": ("g.max_pay(1)", "def max(a, b):\n    return a + b\n", "pay(max(1, 1))"),
"sh_helper_str": ("g.never_to('1')", "def str(x):\n    return 'zz'\n", "send(str(1), 1)"),
"sh_helper_ident_sum": ("g.max_pay(1)", "def sum(xs):\n    return 50\n", "pay(sum([1]))"),
"sh_local_len": ("g.max_pay(1)", "", "len = 7\npay(len)"),
"sh_param_named_len": ("g.max_pay(1)", "def f(len):\n    return len\n", "pay(f(9))"),
"sc_global_then_local": ("g.locked_at_end('front')", "X = 1\n", "unlock('front')\npay(X)\nX = 5\nlock('front')"),
"sc_global_then_local_helper": ("g.locked_at_end('front')", "X = 1\n\ndef h():\n    pay(X)\n    X = 2\n    return X\n", "unlock('front')\nk = h()\nlock('front')"),
"sc_global_loop_target": ("g.locked_at_end('front')", "X = 1\n", "unlock('front')\npay(X)\nfor X in [2]:\n    pay(0)\nlock('front')"),
"sc_global_shadow_value": ("g.max_pay(1)", "X = 1\n", "X = 9\npay(X)"),
"sc_helper_reads_global_after_main_shadow": ("g.max_pay(1)", "X = 1\n\ndef h():\n    return X\n", "X = 9\npay(h())"),
"sc_global_list_mutated": ("g.max_pay(1)", "XS = [1]\n\ndef h():\n    return len(XS)\n", "XS.append(2)\npay(h())"),
"sc_helper_mutates_global": ("g.max_pay(1)", "XS = [1]\n\ndef h():\n    XS.append(2)\n    return 0\n", "k = h()\npay(len(XS))"),
"sc_helper_default_mutated": ("g.max_pay(1)", "def h(acc=[]):\n    acc.append(1)\n    return len(acc)\n", "k = h()\npay(h())"),
"sc_helper_calls_later_def": ("g.max_pay(1)", "def h():\n    return later()\n\ndef later():\n    return 5\n", "pay(h())"),
"sc_redefined_helper": ("g.max_pay(1)", "def h():\n    return 1\n\ndef h():\n    return 5\n", "pay(h())"),
"sc_recursion": ("g.max_pay(1)", "def h(n):\n    if n <= 0:\n        return 0\n    return 1 + h(n - 1)\n", "pay(h(3))"),
"sc_main_param_default": ("g.max_pay(1)", "", "pay(n)"),
}

PROGRAMS10: dict[str, tuple[str, str]] = {
    # range, enumerate, round and truth at edges
    "r_range_huge_step": ("g.pays_at_most(1)", 'for i in range(0, 1 << 70, 1 << 69):\n    pay(0)'),
    "r_range_neg_step_count": ("g.pays_at_most(2)", 'for i in range(3, -3, -2):\n    pay(0)'),
    "r_range_huge_start": ("g.max_pay(1)", 'for i in range(10 ** 20, 10 ** 20 + 2):\n    pay(i - 10 ** 20)'),
    "r_enumerate_neg_start": ("g.max_pay(0)", 'for i, v in enumerate([1, 2], -5):\n    pay(i + 5)'),
    "r_round_half_even_ok": ("g.max_pay(0)", F + 'if 0.0 <= x <= 0.5:\n    pay(round(x))'),
    "r_round_half_even_false": ("g.max_pay(1)", F + 'if 0.0 <= x <= 1.5:\n    pay(round(x))'),
    "r_int_trunc_neg": ("g.max_pay(0)", F + 'if -0.99 <= x <= 0.99:\n    pay(int(x) + 0)'),
    "r_floor_neg": (L, u(F + 'if -1.0 < x < 0.0:\n    k = [0][math.floor(x) + 1]')),
    "r_ceil_neg": (L, u(F + 'if -1.0 < x < 0.0:\n    k = [0][math.ceil(x)]')),
    "r_truth_nan": ("g.max_pay(0)", F + 'if x:\n    pay(1)'),
    "r_truth_negzero_ok": ("g.max_pay(0)", 'x = -0.0\nif x:\n    pay(1)'),
    "r_truth_nan_const": ("g.max_pay(0)", 'if float("nan"):\n    pay(1)'),
    "r_bool_of_str_false": ("g.max_pay(0)", 'if bool("False"):\n    pay(1)'),
    "r_max_floats_nan_first": ("g.notes_are_numbers()", 'xs = read_floats("k")\nif len(xs) > 0:\n    note(max(xs))'),
    "r_min_floats_bounded": ("g.notes_below(1.0)", 'xs = read_floats("k")\nif len(xs) > 0 and xs[0] < 0.5:\n    note(min(xs))'),
    "r_float_eq_self": ("g.max_pay(0)", F + 'if x != x:\n    pay(1)'),
}


EMAIL_HEADER = "import clauz3\nfrom tools.email.trusted import contracts as e\nfrom tools.email.trusted.effects import send_email\n"
U = "e.unique_recipients()"

# over examples/email (``redteam_check --layer example:email``): recipients from sets and dicts with repeats
EMAIL: dict[str, tuple[str, str]] = {
    "e_set_repeats_unique": (U, 'for a in {"a@x", "a@x", "b@x"}:\n    send_email(a, "hi")'),
    "e_set_lower_unique": (U, 'for a in {"a@x", "A@X".lower()}:\n    send_email(a, "hi")'),
    "e_list_lower_dup": (U, 'for a in ["a@x", "A@X".lower()]:\n    send_email(a, "hi")'),
    "e_dict_overwrite_unique": (U, 'd = {"a@x": 1, "b@x": 2, "a@x": 3}\nfor a in d:\n    send_email(a, "hi")'),
    "e_set_count": ("e.at_most(2)", 'for a in {"a@x", "a@x", "b@x"}:\n    send_email(a, "hi")'),
    "e_set_count_false": ("e.at_most(1)", 'for a in {"a@x", "a@x", "b@x"}:\n    send_email(a, "hi")'),
    "e_enumerate_set_index_msg": ("e.content_length_at_most(1)", 'for i, a in enumerate({"a@x", "a@x", "a@x", "b@x"}):\n    send_email(a, str(i))'),
    "e_recipient_count_dict": ("e.recipient_at_most('a@x', 1)", 'd = {"a@x": 1, "a@x": 2}\nfor a in d:\n    send_email(a, "hi")\nfor a in d.keys():\n    send_email(a, "again")'),
    "e_strip_dup": (U, 'for a in ["a@x", " a@x ".strip()]:\n    send_email(a, "hi")'),
    "e_only_case": ("e.only(['a@x'])", 'send_email("A@x".lower(), "hi")\nsend_email("ß@x".upper().lower(), "hi")'),
}


# Guarantees that are false on some run (checked by hand against CPython and the interpreter's
# documented semantics): a sound prover must never report them proved.
FALSE: frozenset[str] = frozenset({
    "f1_int_to_float_str", "f1_float_inf_growth", "f3_set_filled_mod_false", "f3_dict_get_float_key", "f3_nan_set_len", "f6_fmt_bool_width", "f6_fmt_negzero",
    "f6_round_neg_half", "f6_min_bool_int", "f6_min_negzero_int", "f6_round_int_neg", "f6_int_text_unicode",
    "f6_int_text_spaces", "f6_float_text_underscore", "f6_round_nan_digits",
    "o2_bool_index", "o2_bool_sum", "o2_str_times_bool", "o2_max_negzero", "o2_nan_max_first",
    "o2_chain_side_effect", "o2_dict_negzero_key", "o2_join_set", "o2_str_repeat_neg",
    "o3_replace_empty", "o3_upper_eszett", "o3_strip_unicode_space", "o3_isdigit_superscript",
    "o3_split_none_unicode", "o3_str_count_empty", "o3_count_negzero", "o3_find_neg_start", "o3_default_arg_int",
    "d_float_plus_zero", "d_float_zero_plus", "d_float_abs", "d_bool_plus_zero", "d_int_or_false",
    "d_max_false_first", "d_min_true_first", "d_str_slice2", "d_str_pad", "d_str_strip", "d_str_lower",
    "d_unlock_code_gt3", "d_lock_trusted_names", "d_unlock_trusted_names", "d_ifexp_door", "d_comp_lock",
    "s_f2_tight", "s_f2_neg", "s_f2_negzero", "s_grouping", "s_underscore", "s_plus_sign", "s_space_sign",
    "s_percent", "s_exp", "s_general", "s_width_fill", "s_zero_pad", "s_abs_bound", "s_inf_upper",
    "s_float_literal_rounds_up", "s_float_literal_1e20", "s_round_up_boundary", "s_round_up_boundary0",
    "s_int_grouping", "s_int_hex", "s_int_plus", "s_int_neg", "s_param_float",
    "n_contacts_nested", "n_three_levels", "n_messages_sum",
    "t_find_empty_neg_start", "t_find_empty_start_past_end", "t_find_neg_end", "t_find_neg_start_char",
    "sh_helper_abs", "sh_helper_len", "sh_helper_max", "sh_helper_ident_sum", "sh_local_len", "sh_param_named_len",
    "sc_redefined_helper", "sc_helper_calls_later_def", "sc_global_shadow_value",
    "r_enumerate_neg_start", "r_range_neg_step_count", "r_round_half_even_false", "r_truth_nan", "r_truth_nan_const",
    "r_float_eq_self",
})


# Proved on the main this red team attacked (each ran clean 20-60 times): the default tier runs these
# and ``FALSE``; the soak tier runs every program.
PROVED: frozenset[str] = frozenset({
    "r_ceil_neg", "r_floor_neg", "r_int_trunc_neg", "r_round_half_even_ok", "r_truth_negzero_ok",
    "d_bool_and_true", "d_int_floordiv", "d_max_n_first", "d_str_slice3", "d_sum_false_start", "f1_bool_to_int_str",
    "f1_dict_get_none_later", "f1_int_float_eq_big", "f1_sum_floats_order", "f2_comp_var_restored",
    "f3_dict_key_one_true", "f3_enumerate_values_after_setitem", "f3_index_in_set_list", "f3_items_after_overwrite",
    "f3_list_index_of_set_list", "f3_set_add_repeats_index", "f3_set_bool_int_float_repeat", "f3_set_of_str_repeat",
    "f3_set_zero_forms", "f3_sum_set_mixed_equal", "f3_tuple_of_set_len", "f3_values_index",
    "f4_tuple_vs_list_eq_ok", "f5_dict_get_object", "f5_in_dict_object", "f5_in_set_object", "f6_abs_bool",
    "f6_bool_floordiv", "f6_bool_pow", "f6_huge_div_huge", "f6_int_over_huge", "f6_round_bool",
    "f6_round_inf_digits_ok", "f6_unary_plus_bool", "o2_contacts_repeat", "o2_neg_floor_mod",
    "o3_find_empty_past_end", "o3_find_unknown_start", "o3_split_sep_len", "o5_break_inner_only", "p_dict_elem",
    "p_get_default", "p_helper_ident", "p_ifexp_same", "p_list_elem", "p_max_same", "p_min_list", "p_other_contact",
    "p_tuple_elem", "s_bool_d", "s_f2_ok", "s_int_d", "s_int_width", "s_not_gt_nan", "s_str_contains", "s_str_prec",
    "s_str_width", "s_str_width_prec", "sc_helper_default_mutated", "sc_helper_reads_global_after_main_shadow",
    "sh_helper_str", "t_find_bool_start", "t_find_huge_start", "t_find_result_neg_start_len",
    "t_find_result_vs_len", "t_find_start_gt_end_const", "t_in_empty", "t_index_neg_len", "t_list_index_negzero",
    "t_slice_bounds_swap", "t_slice_neg0", "t_slice_neg_huge", "t_slice_neg_start_len", "t_startswith_empty",
})


def sources(header: str) -> dict[str, str]:
    """Every program's full text (``header`` is the generator's HEADER)."""
    from redteam_programs import render

    out: dict[str, str] = {}
    plain = (PROGRAMS, PROGRAMS2, PROGRAMS3, PROGRAMS4, PROGRAMS6, PROGRAMS7, PROGRAMS8, PROGRAMS9, PROGRAMS10)
    for table in plain:
        for name, (guarantees, body) in table.items():
            out[name] = render(header + HELPERS + HELPERS4, guarantees, body)
    for name, (guarantees, body) in PROGRAMS5.items():
        out[name] = render(header + HEADER5_EXTRA + HELPERS, guarantees, body)
    for name, (guarantee, defs, body) in SCOPES.items():
        params = "n: int = 5" if name == "sc_main_param_default" else ""
        out[name] = (header + defs + "\n\n@clauz3.guarantee(" + guarantee + ")\ndef main(" + params + ") -> None:\n"
                     + "".join("    " + line + "\n" for line in body.split("\n")))
    return out

PROGRAMS9: dict[str, tuple[str, str]] = {
    # family 3 through sets and dicts filled from trusted results in a loop
    "f3_set_filled_mod_ok": ("g.max_pay(1)", 's = set()\nfor x in read_list("a"):\n    s.add(x % 2)\nfor i, v in enumerate(s):\n    pay(i)'),
    "f3_set_filled_mod_false": ("g.max_pay(0)", 's = set()\nfor x in read_list("a"):\n    s.add(x % 2)\nfor i, v in enumerate(s):\n    pay(i)'),
    "f3_dict_filled_overwrite_ok": ("g.max_pay(1)", 'd = {}\nfor x in read_list("a"):\n    d[x % 2] = x\nfor i, k in enumerate(d):\n    pay(i)'),
    "f3_dict_filled_len": ("g.pays_at_most(2)", 'd = {}\nfor x in read_list("a"):\n    d[x % 2] = x\nfor k in d.values():\n    pay(0)'),
    "f3_set_of_strs_send_index": ("g.never_to('2')", 's = set()\nfor t in read_strs("a"):\n    s.add(t[:1])\nfor i, v in enumerate(s):\n    send(str(i), 1)'),
    "f3_set_trusted_plus_literal": ("g.max_pay(3)", 's = read_set("a")\ns.add(1)\nfor i, v in enumerate(s):\n    pay(i)'),
    "f3_dict_trusted_overwrite": ("g.max_pay(3)", 'd = read_dict("a")\nd["x"] = 1\nfor i, k in enumerate(d):\n    pay(i)'),
    # family 1 through a collection whose element type changes
    "f1_list_grows_types": (L, u('xs = [1]\nfor i in range(3):\n    k = xs[-1] + 1\n    xs = xs + [str(i)]')),
    "f1_dict_value_type": (L, u('d = {"a": 1}\nfor i in range(2):\n    k = d["a"] + 1\n    d = {"a": "s"}')),
    "f1_float_inf_growth": ("g.notes_are_numbers()", 'x = 1e308\nfor i in range(3):\n    note(x - x)\n    x = x * 10'),
    "f1_int_growth_float": (L, u('x = 10 ** 300\nfor i in range(3):\n    y = x * 1.0\n    x = x * 10 ** 5')),
    "f1_sum_floats_order": ("g.notes_below(1.0)", 'note(sum([1e16, 1.0, -1e16]))'),
    "f1_int_float_eq_big": ("g.max_pay(0)", 'if 2 ** 53 + 1 == float(2 ** 53 + 1):\n    pay(1)'),
}

EMAIL_FALSE: frozenset[str] = frozenset({"e_list_lower_dup", "e_recipient_count_dict", "e_strip_dup", "e_set_count_false",
                                         "e_only_case"})


def email_sources() -> dict[str, str]:
    from redteam_programs import render

    return {name: render(EMAIL_HEADER, guarantees, body) for name, (guarantees, body) in EMAIL.items()}
