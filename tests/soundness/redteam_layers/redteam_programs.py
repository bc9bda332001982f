"""Hostile programs for the red-team check (issue 10 §6), as (guarantees, body) per name.

``GEN`` runs over the generative test layer (tests/soundness/gen_layers, with the generator's header
helpers and ``GEN_DEFS``); ``HOST`` over the red-team layer in ``hostile/`` (``HOST_HEADER``). Most
guarantees here are false on purpose: a sound prover must not prove them; the rest are true and
pin the one semantics (docs/semantics.md). Guarantees are separated by ``;``.
"""

from __future__ import annotations

GEN = {
 # aliasing through comprehension results, nested containers, copies
 "alias_comp_element": ("g.max_pay(1)", "a = [1]\nb = [x for x in [a]][0]\na.append(5)\npay(b[-1])"),
 "alias_dict_nested_list": ("g.max_pay(1)", 'd = {"k": [1]}\nl = d["k"]\nl.append(9)\npay(d["k"][-1])'),
 "alias_tuple_nested_list": ("g.max_pay(1)", "l = [1]\nt = (l, 2)\nl.append(9)\npay(t[0][-1])"),
 "alias_list_copy": ("g.max_pay(1)", "a = [1]\nb = list(a)\nb.append(9)\npay(a[-1])"),
 "alias_slice_copy": ("g.max_pay(1)", "a = [1]\nb = a[:]\nb[0] = 9\npay(a[0])"),
 "alias_dict_copy": ("g.max_pay(1)", 'd = {"a": 1}\ne = dict(d)\ne["a"] = 9\npay(d["a"])'),
 "alias_iadd_list": ("g.max_pay(1)", "a = [1]\nb = a\nb += [9]\npay(a[-1])"),
 "alias_rebind_add": ("g.max_pay(1)", "a = [1]\nb = a\nb = b + [9]\npay(a[-1])"),
 "alias_chained_assign": ("g.max_pay(1)", "x = y = [1]\nx.append(9)\npay(y[-1])"),
 "alias_list_repeat": ("g.max_pay(1)", "a = [[1]] * 2\na[0].append(9)\npay(a[1][-1])"),
 "alias_same_list_twice": ("g.max_pay(1)", "l = [1]\nm = [l, l]\nm[0].append(9)\npay(m[1][-1])"),
 "alias_dict_values_same": ("g.max_pay(1)", 'l = [1]\nd = {"a": l, "b": l}\nd["a"].append(9)\npay(d["b"][-1])'),
 "alias_setdefault_chain": ("g.max_pay(1)", 'd = {"k": [1]}\nd.setdefault("k", [0]).append(9)\npay(d["k"][-1])'),
 "alias_extend_self": ("g.pays_at_most(2)", "a = [1]\na.extend(a)\na += a\nfor x in a:\n    pay(x)"),
 "alias_loop_target_mutation": ("g.max_pay(1)", "l = [1]\nfor x in [l, l]:\n    x.append(9)\npay(l[-1])"),
 "alias_tuple_unpack_same": ("g.max_pay(1)", "l = [1]\na, b = l, l\na.append(9)\npay(b[-1])"),
 "alias_helper_mutates": ("g.max_pay(1)", "a = [1]\nadd9(a)\npay(a[-1])"),
 "alias_helper_returns_arg_mutated": ("g.max_pay(1)", "a = [1]\nb = ident(a)\nb.append(9)\npay(a[-1])"),
 "alias_default_arg_mutation": ("g.max_pay(1)", "acc_len(1)\npay(acc_len(2))"),
 "alias_pick_nested": ("g.max_pay(1)", 'a = [1]\nb = pick(read_flag("c"), a, a)\na[0] = 9\npay(b[0])'),
 "alias_dict_in_list": ("g.max_pay(1)", 'ds = [{"v": 1}]\ne = ds[0]\ne["v"] = 9\npay(ds[0]["v"])'),
 "alias_sorted_copy": ("g.max_pay(1)", "a = [1]\nb = sorted(a)\nb.append(9)\npay(a[-1])"),
 "alias_swap": ("g.max_pay(1)", "a = [1]\nb = [9]\na, b = b, a\npay(b[0])\nb.append(5)\npay(a[0] - 9)"),
 # loops: mutated bounds, enumerate/zip/reversed/sorted over mutated data
 "loop_range_mutated_bound": ("g.pays_at_most(2)", "n = 2\nfor i in range(n):\n    n += 5\n    pay(1)"),
 "loop_range_mutated_bound_over": ("g.pays_at_most(1)", "n = 2\nfor i in range(n):\n    n = 0\n    pay(1)"),
 "loop_enumerate_mutated": ("g.max_pay(1)", "a = [1, 0]\nfor i, x in enumerate(a):\n    a[1] = 9\n    pay(x)"),
 "loop_zip_mutated": ("g.max_pay(1)", "a = [1, 0]\nb = [0, 0]\nfor x, y in zip(a, b):\n    a[1] = 9\n    pay(x + y)"),
 "loop_reversed_mutated": ("g.max_pay(1)", "a = [0, 1]\nfor x in reversed(a):\n    a[0] = 9\n    pay(x)"),
 "loop_sorted_mutated": ("g.max_pay(1)", "a = [1, 0]\nfor x in sorted(a):\n    a.append(9)\n    pay(x)"),
 "loop_list_grows_pays": ("g.pays_at_most(1)", "a = [1]\nfor x in a:\n    if len(a) < 5:\n        a.append(x)\n    pay(1)"),
 "loop_while_break_else": ("g.max_pay(0)", "i = 0\nwhile i < 3:\n    i += 1\n    if i == 2:\n        break\nelse:\n    pay(5)"),
 "loop_while_else_runs": ("g.max_pay(4)", "i = 0\nwhile i < 3:\n    i += 1\nelse:\n    pay(5)"),
 "loop_for_else_nested_break": ("g.max_pay(4)", "for i in range(3):\n    for j in range(2):\n        if j == 1:\n            break\nelse:\n    pay(5)"),
 "loop_early_return_branch": ("g.pays_at_most(1)", 'for i in range(3):\n    if read_flag("c"):\n        pay(1)\n        return\n    pay(1)'),
 "loop_while_true_break": ("g.pays_at_most(2)", "k = 0\nwhile True:\n    pay(1)\n    k += 1\n    if k >= 3:\n        break"),
 "loop_continue_else": ("g.max_pay(4)", "for i in range(2):\n    if i == 0:\n        continue\nelse:\n    pay(5)"),
 "loop_dict_delete_reinsert_order": ("g.never_to('b')", 'd = {"a": 1, "b": 2}\ndel d["a"]\nd["a"] = 3\nfor k in d:\n    send(k, 1)\n    break'),
 "loop_dict_overwrite_keeps_order": ("g.never_to('b')", 'd = {"a": 1, "b": 2}\nd["a"] = 9\nfor k in d:\n    send(k, 1)\n    break\nsend("a", 0)'),
 # exceptions after an effect, with end-state guarantees
 "exc_index_after_unlock": ("g.locked_at_end('front')", 'unlock("front")\nx = [1][read_int("k")]\nlock("front")'),
 "exc_key_after_unlock": ("g.locked_at_end('front')", 'unlock("front")\nd = {"a": 1}\nx = d[read_str("k")]\nlock("front")'),
 "exc_int_text_after_unlock": ("g.locked_at_end('front')", 'unlock("front")\nx = int(read_str("k"))\nlock("front")'),
 "exc_div_zero_after_unlock": ("g.locked_at_end('front')", 'unlock("front")\nx = 1 // read_int("k")\nlock("front")'),
 "exc_int_nan_after_unlock": ("g.locked_at_end('front')", 'unlock("front")\nx = int(read_float("k"))\nlock("front")'),
 "exc_int_nan_literal": ("g.locked_at_end('front')", 'unlock("front")\nx = int(float("nan"))\nlock("front")'),
 "exc_min_empty": ("g.locked_at_end('front')", 'unlock("front")\nx = min(read_list("k"))\nlock("front")'),
 "exc_pop_empty": ("g.locked_at_end('front')", 'unlock("front")\nxs = read_list("k")\nx = xs.pop()\nlock("front")'),
 "exc_remove_missing": ("g.locked_at_end('front')", 'unlock("front")\nxs = [1, 2]\nxs.remove(read_int("k"))\nlock("front")'),
 "exc_index_method_missing": ("g.locked_at_end('front')", 'unlock("front")\nxs = [1, 2]\nx = xs.index(read_int("k"))\nlock("front")'),
 "exc_float_mod_zero": ("g.locked_at_end('front')", 'unlock("front")\nx = 5.0 % read_float("k")\nlock("front")'),
 "exc_neg_index_short": ("g.locked_at_end('front')", 'unlock("front")\nxs = read_list("k")\nx = xs[-1]\nlock("front")'),
 "exc_helper_raises_after_effect": ("g.locked_at_end('front')", 'unlock("front")\nx = first_or([], 0) + [5][read_int("k")]\nlock("front")'),
 "exc_lock_code_feeds_unlock": ("g.locked_at_end('front')", 'c = lock("front")\nif c > 2:\n    unlock("front")'),
 "exc_float_to_int_big": ("g.locked_at_end('front')", 'unlock("front")\nx = int(read_float("k") * 0 + 1e308 * 10)\nlock("front")'),
 "exc_chr_big": ("g.locked_at_end('front')", 'unlock("front")\nx = chr(read_big("k"))\nlock("front")'),
 "exc_str_repeat_huge": ("g.locked_at_end('front')", 'unlock("front")\nx = len("ab" * read_int("k"))\nlock("front")'),
 # floats
 "float_overflow_inf_minus_inf": ("g.notes_are_numbers()", "x = 1e308 * 10\nnote(x - x)"),
 "float_inf_times_zero": ("g.notes_are_numbers()", 'note(read_float("k") * 0.0)'),
 "float_neg_zero_text": ("g.never_to('-0.0')", "send(str(-0.0), 1)"),
 "float_neg_zero_key": ("g.never_to('b')", 'd = {0.0: "a"}\nd[-0.0] = "b"\nsend(d[0.0], 1)'),
 "float_neg_zero_key_kept": ("g.never_to('0.0')", 'd = {0.0: "a"}\nd[-0.0] = "b"\nfor k in d:\n    send(str(k), 1)'),
 "float_abs_neg_zero": ("g.never_to('0.0')", "send(str(abs(-0.0)), 1)"),
 "float_nan_truthy": ("g.max_pay(0)", 'if float("nan"):\n    pay(5)'),
 "float_nan_in_list": ("g.max_pay(0)", 'n = float("nan")\nif n in [n]:\n    pay(5)'),
 "float_nan_not_equal": ("g.max_pay(0)", 'n = float("nan")\nif n != n:\n    pay(5)'),
 "float_nan_set_len": ("g.max_pay(1)", 'n = float("nan")\npay(len({n, n}))'),
 "float_sum_tenths": ("g.max_pay(0)", "s = sum([0.1] * 10)\nif s != 1.0:\n    pay(5)"),
 "float_text_sum": ("g.never_to('0.30000000000000004')", 'send(f"{0.1 + 0.2}", 1)'),
 "float_text_big": ("g.never_to('1e+16')", "send(str(1e16), 1)"),
 "float_text_true_div": ("g.never_to('2.0')", "send(str(4 / 2), 1)"),
 "float_round_half_even": ("g.max_pay(1)", "pay(round(2.5))"),
 "float_round_half_even_neg": ("g.max_pay(1)", "pay(round(-0.5) + 3)"),
 "float_divmod_neg": ("g.max_pay(0)", "q, r = divmod(-7, 2)\npay(q + 4 + r)"),
 "float_mod_neg": ("g.max_pay(1)", "pay(-7 % 3)"),
 "float_mod_neg_divisor": ("g.max_pay(0)", "pay(7 % -3 + 2)"),
 "float_floordiv_neg": ("g.max_pay(0)", "pay(-7 // 2 + 4)"),
 "float_fmod_float_neg": ("g.never_to('0.5')", "send(str(-7.5 % 2), 1)"),
 "float_divmod_float": ("g.never_to('-0.5')", "q, r = divmod(7.5, -2)\nsend(str(r), 1)"),
 "float_float_parse_underscore": ("g.never_to('10.5')", 'send(str(float("1_0.5")), 1)'),
 "float_parse_infinity": ("g.never_to('-inf')", 'send(str(float(" -iNfinity ")), 1)'),
 "int_parse_underscore": ("g.never_to('10')", 'send(str(int("1_0")), 1)'),
 "int_parse_spaces_plus": ("g.max_pay(6)", 'pay(int(" +7 "))'),
 # big ints and int/float equality
 "big_int_float_ne": ("g.max_pay(0)", "x = 2 ** 53 + 1\nif x != 9007199254740992.0:\n    pay(5)"),
 "big_int_float_eq_key": ("g.never_to('a')", 'd = {9007199254740992.0: "a"}\nx = 2 ** 53 + 1\nif x in d:\n    send(d[x], 1)\nelse:\n    send("z", 1)\nsend("a", 0)'),
 "big_pow_text": ("g.never_to('1')", "x = 10 ** 5000\nsend(str(x)[0:1], 1)"),
 "big_int_of_float": ("g.never_to('100000000000000000000')", "send(str(int(1e20)), 1)"),
 "big_merge_int_float": ("g.max_pay(0)", 'x = 2 ** 53 + 1 if read_flag("c") else 0.5\nif x == 9007199254740992:\n    pay(5)'),
 # bools and mixed types
 "bool_add": ("g.max_pay(1)", "pay(True + True)"),
 "bool_text_add": ("g.never_to('2')", "send(str(True + True), 1)"),
 "bool_neg_invert": ("g.max_pay(0)", "pay(-True + 1 + (~True + 2))"),
 "bool_int_dict_key": ("g.never_to('evil')", 'd = {1: "a"}\nd[1.0] = "evil"\nsend(d[1], 1)'),
 "bool_key_kept_first": ("g.never_to('1')", 'd = {1: "a"}\nd[True] = "b"\nfor k in d:\n    send(str(k), 1)'),
 "bool_set_first_kept": ("g.never_to('1')", "s = {1, 1.0, True}\nfor x in s:\n    send(str(x), 1)"),
 "bool_set_true_first": ("g.never_to('True')", "s = {True, 1}\nsend(str(list(s)[0]), 1)"),
 "bool_set_len_mixed": ("g.max_pay(0)", "pay(len({1, 1.0, True}) - 1)"),
 "bool_min_tie": ("g.never_to('True')", "send(str(min(True, 1)), 1)"),
 "bool_max_tie": ("g.never_to('1')", "send(str(max(1, True)), 1)"),
 "bool_max_int_float_tie": ("g.never_to('1')", "send(str(max(1, 1.0)), 1)"),
 "bool_min_zero_negzero": ("g.never_to('0.0')", "send(str(min(0.0, -0.0)), 1)"),
 "bool_sorted_stable": ("g.never_to('1')", "send(str(sorted([1, True])[0]), 1)"),
 "bool_sorted_key": ("g.never_to('b')", 'xs = sorted(["b", "a"], key=lambda s: 0)\nsend(xs[0], 1)'),
 "bool_sorted_key_len": ("g.never_to('bb')", 'xs = sorted(["ccc", "bb", "a"], key=lambda s: -len(s))\nsend(xs[1], 1)'),
 "bool_max_key_tie": ("g.never_to('b')", 'send(max(["b", "a"], key=lambda s: 1), 1)'),
 "bool_fstring_bool": ("g.never_to('True')", 'send(f"{1 == 1}", 1)'),
 "bool_merge_text": ("g.never_to('True')", 'x = True if read_flag("c") else 2\nsend(str(x), 1)'),
 "bool_int_of_true": ("g.never_to('1.0')", "send(str(float(True)), 1)"),
 "bool_or_value": ("g.max_pay(4)", "pay(0 or 5)"),
 "bool_and_value": ("g.max_pay(0)", "pay(3 and 0)"),
 "bool_is_alias": ("g.max_pay(0)", "a = [1]\nb = a\nif a is b:\n    pay(5)"),
 "bool_is_none": ("g.max_pay(0)", 'x = None\nif read_flag("c"):\n    x = 1\nif x is None:\n    pay(5)'),
 # comparison chains, strings
 "chain_evaluated_once": ("g.pays_at_most(1)", "if 0 < pay_and_count(1) < 5:\n    pass"),
 "chain_short_circuit": ("g.pays_at_most(0)", "if 5 < 3 < pay_and_count(1):\n    pass"),
 "chain_mixed": ("g.max_pay(0)", "if 1 < 2 > 0 == 0.0:\n    pay(5)"),
 "str_repeat_negative": ("g.never_to('')", 'send("ab" * (read_int("k") - 5), 1)'),
 "str_upper_sharp_s": ("g.never_to('SS')", 'send("ß".upper(), 1)'),
 "str_compare_case": ("g.max_pay(0)", 'if "Z" < "a":\n    pay(5)'),
 "str_empty_in": ("g.max_pay(0)", 'if "" in "abc":\n    pay(5)'),
 "str_reverse_slice": ("g.never_to('cba')", 'send("abc"[::-1], 1)'),
 "str_join_mutated": ("g.never_to('a,b')", 'xs = ["a"]\nt = ",".join(xs)\nxs.append("b")\nsend(",".join(xs), 1)'),
 "str_split_default": ("g.max_pay(1)", 'pay(len(" a  b ".split()))'),
 "str_zero_truthy": ("g.max_pay(0)", 'if "0":\n    pay(5)'),
 "str_int_float_text": ("g.never_to('1e+22')", "send(str(1e22), 1)"),
 # subscripts, augmented assignment
 "sub_aug_list": ("g.max_pay(5)", "a = [1, 2]\na[0] += 5\npay(a[0])"),
 "sub_aug_dict": ("g.max_pay(1)", 'd = {"k": 1}\nd["k"] += 1\npay(d["k"])'),
 "sub_aug_nested": ("g.max_pay(1)", 'd = {"k": [1]}\nd["k"][0] += 1\npay(d["k"][0])'),
 "sub_target_order": ("g.max_pay(0)", "i = 0\na = [0, 0]\ni, a[i] = 1, 5\npay(a[1])"),
 "sub_neg_assign": ("g.max_pay(1)", "a = [1, 2]\na[-1] = 9\npay(a[1])"),
 "sub_slice_assign": ("g.pays_at_most(2)", "a = [1, 2]\na[0:1] = [5, 6]\nfor x in a:\n    pay(x)"),
 "sub_del": ("g.max_pay(1)", "a = [1, 2]\ndel a[0]\npay(a[0])"),
 "sub_insert_neg": ("g.max_pay(1)", "a = [1, 2]\na.insert(-1, 9)\npay(a[1])"),
 # effects whose results feed later guarantees, kwargs order
 "fx_result_feeds_pay": ("g.max_pay(10)", 'n = read_int("k")\npay(n)\npay(n - read_int("j"))'),
 "fx_result_feeds_pay_over": ("g.max_pay(10)", 'n = read_int("k")\npay(n)\npay(read_int("j"))'),
 "fx_kw_source_order": ("g.locked_at_end('front')", "pair(b=unlock('front'), a=lock('front'))"),
 "fx_kw_source_order_ok": ("g.locked_at_end('front')", "pair(b=unlock('front'), a=lock('front'))\nlock('front')"),
 "fx_default_helper": ("g.pays_at_most(1)", "pay_times(1)"),
 "fx_default_helper_kw": ("g.pays_at_most(1)", "pay_times(1, times=1)"),
 "fx_set_iteration_break": ("g.max_pay(2)", "for x in {2, 9}:\n    pay(x)\n    break"),
 "fx_set_str_iteration": ("g.never_to('b')", 'for x in {"a", "b"}:\n    send(x, 1)\n    break'),
 "fx_set_from_effect": ("g.max_pay(3)", 's = set(read_list("k"))\nfor x in s:\n    pay(x)\n    break'),
 "fx_recursion": ("g.pays_at_most(1)", "countdown(3)"),
 "fx_closure": ("g.pays_at_most(1)", "def inner():\n    pay(1)\ninner()\ninner()"),
 "fx_lambda_call": ("g.max_pay(0)", "f = lambda x: x + 1\npay(f(0))"),
 "fx_all_locked_after_loop": ("g.all_locked_at_end()", 'for d in ["a", "b"]:\n    unlock(d)\n    if d == "a":\n        lock(d)'),
 "fx_exception_between_locks": ("g.all_locked_at_end()", 'unlock("a")\nx = 10 // (read_int("k") - 3)\nlock("a")'),
}
GEN_DEFS_1 = '''from tools.gen.trusted.rows import Contact

def add9(xs):
    xs.append(9)
    return 0


def acc_len(x, acc=[]):
    acc.append(x)
    return len(acc)


def pay_times(k, times=2):
    for _ in range(times):
        pay(k)
    return 0


def countdown(n):
    if n > 0:
        pay(1)
        return countdown(n - 1)
    return 0

'''
GEN2 = {
 "fmt_bool_width": ("g.never_to('    1')", 'send(f"{True:>5}", 1)'),
 "fmt_bool_d": ("g.never_to('1')", 'send(f"{True:d}", 1)'),
 "fmt_bool_float_spec": ("g.never_to('0.0')", 'send(f"{False:.1f}", 1)'),
 "fmt_bool_merged_width": ("g.never_to('    1')", 'x = True if read_flag("c") else 3\nsend(f"{x:>5}", 1)'),
 "fmt_half_even_spec": ("g.never_to('2')", 'send(f"{2.5:.0f}", 1)'),
 "fmt_neg_zero_spec": ("g.never_to('-0.0')", 'send(f"{-0.0:.1f}", 1)'),
 "fmt_neg_pad": ("g.never_to('-0005')", 'send(f"{-5:05d}", 1)'),
 "fmt_repr_conv": ("g.never_to(\"'a'\")", "send(f\"{'a'!r}\", 1)"),
 "fmt_comma_neg": ("g.never_to('-1,000')", 'send(f"{-1000:,}", 1)'),
 "int_true_div_rounding": ("g.never_to('3002399751580331.0')", "send(str((2 ** 53 + 1) / 3), 1)"),
 "int_true_div_huge": ("g.never_to('10.0')", "send(str(10 ** 400 / 10 ** 399), 1)"),
 "int_huge_lt_inf": ("g.max_pay(0)", "x = 10 ** 400\nif x < math.inf:\n    pay(5)"),
 "int_huge_plus_float": ("g.locked_at_end('front')", 'unlock("front")\nx = 10 ** 400 + 0.5\nlock("front")'),
 "int_huge_eq_inf": ("g.max_pay(0)", 'x = 10 ** 400\nif x != float("inf"):\n    pay(5)'),
 "int_arabic_digits": ("g.max_pay(11)", 'pay(int("١٢"))'),
 "float_arabic_digits": ("g.never_to('1.5')", 'send(str(float("١.٥")), 1)'),
 "isdigit_superscript": ("g.locked_at_end('front')", 's = "²"\nif s.isdigit():\n    unlock("front")\n    n = int(s)\n    lock("front")'),
 "isdigit_unknown": ("g.locked_at_end('front')", 's = read_str("k")\nif s.isdigit():\n    unlock("front")\n    n = int(s)\n    lock("front")'),
 "split_empty_sep": ("g.locked_at_end('front')", 'unlock("front")\nxs = "ab".split(read_str("k"))\nlock("front")'),
 "split_empty_sep_lit": ("g.locked_at_end('front')", 'unlock("front")\nxs = "ab".split("")\nlock("front")'),
 "replace_empty": ("g.never_to('-a-b-')", 'send("ab".replace("", "-"), 1)'),
 "count_empty": ("g.max_pay(2)", 'pay("ab".count(""))'),
 "find_empty_past_end": ("g.max_pay(0)", 'pay("abc".find("", 5) + 1)'),
 "find_empty_at_end": ("g.max_pay(2)", 'pay("abc".find("", 3))'),
 "find_neg_start": ("g.max_pay(1)", 'pay("abcb".find("b", -1))'),
 "index_missing_after_unlock": ("g.locked_at_end('front')", 'unlock("front")\nx = "abc".index(read_str("k"))\nlock("front")'),
 "casefold_sharp_s": ("g.never_to('ss')", 'send("ß".casefold(), 1)'),
 "lower_dotted_i": ("g.max_pay(1)", 'pay(len("İ".lower()))'),
 "title_apostrophe": ("g.never_to(\"They'Re\")", "send(\"they're\".title(), 1)"),
 "strip_chars": ("g.never_to('a')", 'send("xxaxx".strip("x"), 1)'),
 "lower_unknown_len": ("g.max_pay(3)", 'pay(len(read_str("k").lower()))'),
 "upper_unknown_len": ("g.max_pay(3)", 'pay(len(read_str("k").upper()))'),
 "join_unknown": ("g.never_to('a')", 'xs = [read_str("k")]\nsend("".join(xs), 1)'),
 "list_count_mixed": ("g.max_pay(1)", "pay([True, 1.0, 2].count(1))"),
 "list_index_nan": ("g.locked_at_end('front')", 'unlock("front")\nn = float("nan")\nx = [n].index(n)\nlock("front")'),
 "list_count_nan": ("g.max_pay(0)", 'n = float("nan")\npay([n].count(n))'),
 "tuple_eq_nan": ("g.max_pay(0)", 'n = float("nan")\nif (n,) == (n,):\n    pay(5)'),
 "list_eq_nan": ("g.max_pay(0)", 'n = float("nan")\nif [n] != [n]:\n    pay(5)'),
 "dict_get_default_eager": ("g.pays_at_most(0)", 'd = {"a": 1}\nx = d.get("a", pay_and_count(1))'),
 "dict_in_true_key": ("g.max_pay(0)", 'd = {1.0: "a"}\nif True in d:\n    pay(5)'),
 "dict_zero_keys_merge": ("g.never_to('c')", 'd = {0: "a", False: "b", 0.0: "c"}\nsend(d[0], 1)'),
 "dict_zero_keys_len": ("g.max_pay(0)", 'd = {0: "a", False: "b", 0.0: "c"}\npay(len(d) - 1)'),
 "dict_zero_key_text": ("g.never_to('0')", 'd = {0: "a", 0.0: "c"}\nfor k in d:\n    send(str(k), 1)'),
 "dict_from_pairs": ("g.never_to('2')", 'd = dict([("a", 1), ("a", 2)])\nsend(str(d["a"]), 1)'),
 "dict_comp_dup": ("g.never_to('2')", "d = {x % 2: x for x in range(4)}\nsend(str(d[0]), 1)"),
 "set_negzero_first": ("g.never_to('-0.0')", "s = {-0.0, 0}\nfor x in s:\n    send(str(x), 1)"),
 "set_tuple_mixed": ("g.max_pay(0)", "pay(len({(1, 2), (1, 2.0)}) - 1)"),
 "set_from_str": ("g.never_to('a')", 'for c in set("aab"):\n    send(c, 1)\n    break'),
 "tuple_key_float": ("g.never_to('x')", 'd = {(1, "a"): "x"}\nsend(d[(1.0, "a")], 1)'),
 "min_nan_first": ("g.notes_are_numbers()", 'note(min(float("nan"), 1.0))'),
 "min_nan_second": ("g.notes_are_numbers()", 'note(min(1.0, float("nan")))'),
 "max_list_nan": ("g.notes_are_numbers()", 'note(max([1.0, float("nan"), 2.0]))'),
 "max_mixed_tie_list": ("g.never_to('2.0')", "send(str(max([1, 2.0, 2])), 1)"),
 "min_unknown_floats": ("g.notes_are_numbers()", 'a = read_float("a")\nif a == a:\n    note(min(a, 1.0))'),
 "min_unknown_nan_second": ("g.notes_are_numbers()", 'a = read_float("a")\nnote(min(1.0, a))'),
 "sum_bools": ("g.never_to('2')", "send(str(sum([True, True])), 1)"),
 "sum_empty_float_start": ("g.never_to('0.0')", "send(str(sum([], 0.0)), 1)"),
 "sum_inf_left": ("g.notes_below(1e309)", "note(sum([1e308, 1e308, -1e308]))"),
 "sum_start_float": ("g.never_to('3.5')", "send(str(sum([1, 2], 0.5)), 1)"),
 "abs_true": ("g.never_to('1')", "send(str(abs(True)), 1)"),
 "round_neg_ndigits": ("g.max_pay(19)", "pay(round(15, -1))"),
 "round_neg_ndigits_even": ("g.max_pay(19)", "pay(round(25, -1) - 1)"),
 "round_true_text": ("g.never_to('1')", "send(str(round(True)), 1)"),
 "round_two_digits": ("g.never_to('2.67')", "send(str(round(2.675, 2)), 1)"),
 "float_parse_overflow": ("g.notes_below(1e308)", 'note(float("1e500"))'),
 "float_neg_nan_text": ("g.never_to('nan')", 'send(str(float("-nan")), 1)'),
 "int_literal_rounding": ("g.max_pay(2)", "pay(int(2.9999999999999999))"),
 "bool_false_text": ("g.max_pay(0)", 'if bool("False"):\n    pay(5)'),
 "bool_neg_zero": ("g.max_pay(0)", "if not -0.0:\n    pay(5)"),
 "tuple_of_str": ("g.max_pay(1)", 'pay(len(tuple("ab")))'),
 "list_of_str": ("g.never_to('b')", 'send(list("ab")[-1], 1)'),
 "range_neg_step": ("g.max_pay(8)", "for i in range(5, 0, -2):\n    pay(i)"),
 "range_zero_step": ("g.locked_at_end('front')", 'unlock("front")\nfor i in range(1, 5, 0):\n    pay(i)\nlock("front")'),
 "enumerate_neg_start": ("g.max_pay(0)", "for i, x in enumerate([0, 0], -1):\n    pay(i + 1)"),
 "enumerate_start_text": ("g.never_to('-1')", 'for i, x in enumerate(["a"], -1):\n    send(str(i), 1)'),
 "math_floor_neg": ("g.never_to('-1')", "send(str(math.floor(-0.5)), 1)"),
 "math_ceil_neg": ("g.never_to('0')", "send(str(math.ceil(-0.5)), 1)"),
 "math_trunc_neg": ("g.never_to('-2')", "send(str(math.trunc(-2.5)), 1)"),
 "math_floor_big": ("g.never_to('1')", "send(str(math.floor(1e308))[0:1], 1)"),
 "math_floor_unknown": ("g.locked_at_end('front')", 'unlock("front")\nx = math.floor(read_float("k"))\nlock("front")'),
 "math_isclose_tiny": ("g.max_pay(0)", "if not math.isclose(1e-10, 0.0):\n    pay(5)"),
 "math_isclose_inf": ("g.max_pay(0)", 'if math.isclose(math.inf, math.inf):\n    pay(5)'),
 "ord_chr_roundtrip": ("g.max_pay(96)", 'pay(ord(chr(97)))'),
 "chr_neg": ("g.locked_at_end('front')", 'unlock("front")\nx = chr(read_int("k") - 1)\nlock("front")'),
 "ord_long": ("g.locked_at_end('front')", 'unlock("front")\nx = ord(read_str("k"))\nlock("front")'),
 "str_cmp_digits": ("g.max_pay(0)", 'if "10" < "9":\n    pay(5)'),
 "tuple_cmp": ("g.max_pay(0)", "if (1, 2) < (1, 3):\n    pay(5)"),
 "comp_nested_cond": ("g.max_pay(3)", "xs = [i * j for i in range(3) for j in range(3) if i != j]\npay(max(xs))"),
 "comp_shadow_restored": ("g.max_pay(0)", "x = 0\nys = [x for x in range(5)]\npay(x)"),
 "bool_merge_sum": ("g.never_to('True')", 'x = True if read_flag("c") else 0\nsend(str(x + 0), 1)'),
 "bool_merge_list_elem": ("g.never_to('True')", 'xs = [True] if read_flag("c") else [2]\nsend(str(xs[0]), 1)'),
 "bool_merge_max": ("g.never_to('True')", 'x = read_flag("c")\nsend(str(max(x, 0)), 1)'),
 "bool_merge_dict_val": ("g.never_to('True')", 'd = {"a": 1}\nif read_flag("c"):\n    d = {"a": True}\nsend(str(d["a"]), 1)'),
 "float_int_merge_big_text": ("g.never_to('9007199254740993')", 'x = 2 ** 53 + 1 if read_flag("c") else 0.5\nsend(str(x), 1)'),
 "fx_unlock_in_comprehension": ("g.locked_at_end('front')", 'xs = [unlock("front") for i in range(2)]\nlock("front")\nys = [unlock("front") for i in range(read_int("k"))]'),
 "fx_lock_in_helper_default": ("g.locked_at_end('front')", "lock_then(unlock('front'))"),
 "fx_locked_both_branches": ("g.locked_at_end('front')", 'unlock("front")\nif read_flag("c"):\n    lock("front")\nelse:\n    c = lock("front")\n    if c == 4:\n        unlock("front")'),
 "fx_lock_other_door": ("g.locked_at_end('front')", 'd = read_str("k")\nunlock(d)\nif d != "front":\n    pass\nelse:\n    lock("front")'),
 "fx_lock_case_door": ("g.locked_at_end('front')", 'unlock("front")\nlock("Front".lower())'),
 "fx_lock_unknown_lower": ("g.locked_at_end('front')", 'd = read_str("k")\nunlock("front")\nlock(d.lower())'),
 "fx_pay_in_nested_comprehension": ("g.pays_at_most(3)", "xs = [pay_and_count(1) for i in range(2) for j in range(2)]"),
 "fx_only_to_mixed": ("g.only_to(['a', 'b'])", 'for t in ["a", "b", "a"]:\n    send(t, 1)\nsend(read_str("k") * 0 + "a", 1)'),
}
GEN_DEFS_2 = '''
def lock_then(code, door="front"):
    lock(door)
    return code

'''
HOST_HEADER = '''import math

import clauz3
from tools.hostile.trusted import contracts as h
from tools.hostile.trusted.effects import (
    arm, budget, code, disarm, is_hall, items, measure, post, query, quote, ratio, spend, store,
)
from tools.hostile.trusted.rows import Item


def spend_all(xs, extra=0):
    for x in xs:
        spend(x)
    if extra > 0:
        spend(extra)
    return len(xs)


def arm_twice(zone, second="hall"):
    arm(zone)
    arm(second)
    return 0


def fill(tank, litres=5):
    store(tank, litres)
    return litres

'''
HOST = {
 "h_quote_int_inf": ("h.spends_at_most(1)", "q = quote()\nspend(int(q))"),
 "h_quote_compare_inf": ("h.spend_under(10)", "q = quote()\nif q < 9.5:\n    spend(int(q))"),
 "h_quote_nan_excluded": ("h.no_post('nan')", "post(str(quote()))"),
 "h_quote_inf_text": ("h.no_post('inf')", "post(str(quote()))"),
 "h_quote_round": ("h.spend_under(10)", "q = quote()\nif q < 9.0:\n    spend(round(q))"),
 "h_quote_round_edge": ("h.spend_under(9)", "q = quote()\nif q < 9.0:\n    spend(round(q))"),
 "h_quote_floor_guard": ("h.spend_under(10)", "q = quote()\nif q <= 9.99:\n    spend(math.floor(q))"),
 "h_code_len": ("h.posts_short(2)", "post(code())"),
 "h_code_upper": ("h.no_post('BB')", "post(code().upper())"),
 "h_code_concat": ("h.posts_short(3)", "c = code()\npost(c + c)"),
 "h_code_in_dict": ("h.spend_under(3)", 'd = {"a": 1, "bb": 2}\nspend(d[code()])'),
 "h_code_branch": ("h.spend_under(2)", 'c = code()\nif c == "a":\n    spend(1)\nelif c != "bb":\n    spend(5)'),
 "h_budget_range": ("h.spends_at_most(7)", "for i in range(budget()):\n    spend(1)"),
 "h_budget_range_over": ("h.spends_at_most(6)", "for i in range(budget()):\n    spend(1)"),
 "h_budget_mod": ("h.spend_under(2)", "spend(budget() % 2)"),
 "h_budget_div": ("h.spend_under(4)", "spend(budget() // 2)"),
 "h_budget_true_div_text": ("h.no_post('3.5')", "post(str(budget() / 2))"),
 "h_ratio_int": ("h.spend_under(10)", "r = ratio()\nif r >= 0.0:\n    spend(int(r))"),
 "h_ratio_abs": ("h.spend_under(10)", "spend(int(abs(ratio())))"),
 "h_ratio_neg_zero_text": ("h.no_post('-0.0')", "r = ratio()\nif r == 0.0:\n    post(str(r))"),
 "h_ratio_square": ("h.spend_under(100)", "r = ratio()\nspend(int(r * r))"),
 "h_ratio_exp": ("h.spend_under(100)", "r = ratio()\nif r > 0.0:\n    spend(int(r ** 2))"),
 "h_items_sum": ("h.spends_at_most(2)", "for it in items():\n    spend(it.cents * 0)"),
 "h_items_neg_cents": ("h.spends_at_most(1)", "xs = items()\nif len(xs) > 0:\n    if xs[0].cents >= 0:\n        spend(xs[0].cents)"),
 "h_items_neg_requires": ("h.spends_at_most(1)", "xs = items()\nif len(xs) > 0:\n    spend(xs[0].cents)"),
 "h_items_name_post": ("h.no_post('evil')", 'for it in items():\n    if it.name != "evil":\n        post(it.name)'),
 "h_items_name_upper": ("h.no_post('EVIL')", 'for it in items():\n    if it.name != "EVIL":\n        post(it.name.upper())'),
 "h_items_alias": ("h.no_post('evil')", 'xs = items()\nys = xs\nif len(xs) > 0:\n    if xs[0].name != "evil":\n        post(ys[0].name)'),
 "h_items_build_row": ("h.spend_under(6)", 'r = Item(name="x", cents=5)\nspend(r.cents)'),
 "h_items_build_row_over": ("h.spend_under(5)", 'r = Item(name="x", cents=5)\nspend(r.cents)'),
 "h_items_min_cents": ("h.spend_under(1)", "xs = items()\nif len(xs) == 2:\n    m = min(xs[0].cents, xs[1].cents)\n    if m <= 0 and m >= 0:\n        spend(m)"),
 "h_spend_all_default": ("h.spends_at_most(2)", "spend_all([1, 2])"),
 "h_spend_all_extra": ("h.spends_at_most(2)", "spend_all([1, 2], 3)"),
 "h_spend_all_kw_extra": ("h.spend_under(4)", "spend_all([1, 2], extra=0)"),
 "h_spend_all_list_alias": ("h.spends_at_most(1)", "xs = [1]\nn = spend_all(xs)\nxs.append(n)"),
 "h_arm_default": ("h.armed_at_end('hall')", "arm_twice('x')"),
 "h_arm_default_then_disarm": ("h.armed_at_end('hall')", "arm_twice('x')\ndisarm('hall')"),
 "h_arm_default_overridden": ("h.armed_at_end('hall')", "arm_twice('x', 'y')"),
 "h_armed_initial_false": ("h.armed_at_end('x')", "disarm('y')"),
 "h_armed_is_hall": ("h.armed_at_end('hall')", 'z = "hall"\nif is_hall(z):\n    arm(z)'),
 "h_armed_is_hall_unknown": ("h.armed_at_end('hall')", 'z = code()\nif is_hall(z):\n    arm(z)\narm("hall")\nif not is_hall(z):\n    disarm(z)'),
 "h_armed_exc_after": ("h.armed_at_end('hall')", 'arm("hall")\ndisarm("hall")\nx = [1, 2][budget() - 6]\narm("hall")'),
 "h_armed_exc_after_over": ("h.armed_at_end('hall')", 'disarm("hall")\nx = [1][budget() - 6]\narm("hall")'),
 "h_armed_key_case": ("h.armed_at_end('hall')", 'arm("HALL".lower())'),
 "h_armed_key_fstring": ("h.armed_at_end('hall')", 'n = budget()\narm(f"h{n}")\narm("hall")\ndisarm(f"hall{n - 6}"[0:4])'),
 "h_armed_loop_last": ("h.armed_at_end('hall')", 'for z in ["hall", "x", "hall"]:\n    arm(z)\n    if z == "x":\n        disarm("hall")'),
 "h_tank_is_default": ("h.tank_is('t', 5)", "fill('t')"),
 "h_tank_is_override": ("h.tank_is('t', 5)", "fill('t', 6)"),
 "h_tank_bool": ("h.tank_is('t', 1)", "store('t', True)"),
 "h_tank_bool_text": ("h.no_post('True')", "store('t', True)\npost(str(True + 0))"),
 "h_tank_not_empty": ("h.tank_not_empty('t')", "store('t', budget() - 6)"),
 "h_tank_not_empty_ok": ("h.tank_not_empty('t')", "store('t', budget() - 5)"),
 "h_tank_last_write": ("h.tank_is('t', 7)", "store('t', 7)\nfor i in range(budget()):\n    store('t', i)\nstore('t', 7)"),
 "h_tank_last_write_over": ("h.tank_is('t', 7)", "store('t', 7)\nfor i in range(budget()):\n    store('t', i + 1)"),
 "h_tank_float_litres": ("h.tank_is('t', 3)", "store('t', int(budget() / 2))"),
 "h_tank_two_tanks": ("h.tank_is('t', 0)", "store('u', 9)"),
 "h_tank_key_from_items": ("h.tank_is('t', 0)", "for it in items():\n    if it.name != 't':\n        store(it.name, 1)"),
 "h_post_long": ("h.posts_short(3)", "post(code() * 2)"),
 "h_post_fmt_ratio": ("h.posts_short(5)", 'post(f"{ratio():.1f}")'),
 "h_post_fmt_ratio_over": ("h.posts_short(4)", 'post(f"{ratio():.1f}")'),
 "h_post_str_budget": ("h.posts_short(1)", "post(str(budget()))"),
 "h_post_join": ("h.posts_short(5)", 'post("-".join([code(), code()]))'),
 "h_spend_bool_sum": ("h.spend_under(2)", "spend(sum([True, False, True]) - 1)"),
 "h_spend_set_dedup": ("h.spend_under(2)", "s = {budget(), budget()}\nspend(len(s))"),
 "h_spend_set_dedup_over": ("h.spend_under(2)", "s = {budget(), budget(), 6}\nspend(len(s))"),
 "h_spend_dict_overwrite": ("h.spend_under(7)", 'd = {}\nd[budget()] = 1\nd[6] = 2\nspend(len(d) * 3)'),
}

GEN.update(GEN2)
GEN_DEFS = GEN_DEFS_1 + GEN_DEFS_2


def render(header: str, guarantees: str, body: str) -> str:
    """The program text: header, the guarantees as decorators, then main's body."""
    decorators = "".join(f"@clauz3.guarantee({g.strip()})\n" for g in guarantees.split(";"))
    return header + "\n" + decorators + "def main() -> None:\n" + "".join(f"    {line}\n" for line in body.split("\n"))


# ---------------------------------------------------------------- the example libraries (examples/NAME)

EXAMPLE_HEADERS = {
    "bank": "import clauz3\nfrom tools.bank.trusted import contracts as b\nfrom tools.bank.trusted.effects import balance, withdraw\n",
    "email": "import clauz3\nfrom tools.email.trusted import contracts as e\nfrom tools.email.trusted.effects import send_email\n",
    "trading": ("import clauz3\nfrom tools.trading.trusted import contracts as t\n"
                "from tools.trading.trusted.effects import list_approvals, sell_shares\n"),
    "cloud": ("import clauz3\nfrom tools.cloud.trusted import contracts as c\n"
              "from tools.cloud.trusted.effects import delete_bucket, list_instances, start_instance, stop_instance\n"),
}

EXAMPLES: dict[str, dict[str, tuple[str, str]]] = {
    "bank": {
        "bank_withdraw_balance": ("b.max_spend(5)", 'x = balance("a")\nif x <= 5:\n    withdraw("a", x)'),
        "bank_min_balance": ("b.max_spend(3)", 'withdraw("a", min(balance("a"), 3))'),
        "bank_abs_distance": ("b.max_spend(10)", 'x = balance("a")\nif x <= 10:\n    withdraw("a", abs(x - 10))'),
        "bank_abs_distance_over": ("b.max_spend(9)", 'x = balance("a")\nif x <= 10:\n    withdraw("a", abs(x - 10))'),
        "bank_strip_account": ("b.only_account('a')", 'withdraw(" a ".strip(), 1)'),
        "bank_lower_account": ("b.only_account('a')", 'withdraw("A".lower(), 1)'),
        "bank_fullwidth_account": ("b.only_account('a')", 'withdraw("ａ", 1)'),
        "bank_set_dedup": ("b.max_spend(3)", 'for acct in {"a", "a"}:\n    withdraw(acct, 3)'),
        "bank_balance_other": ("b.only_account('a')", 'x = balance("b")\nwithdraw("a", 0)'),
        "bank_kwargs": ("b.max_spend(2); b.only_account('a')", 'withdraw(amount=2, account="a")'),
        "bank_running_total": ("b.max_spend(3)", 'total = 0\nfor x in [1, 2]:\n    total = total + x\nwithdraw("a", total)'),
        "bank_running_total_over": ("b.max_spend(2)", 'total = 0\nfor x in [1, 2]:\n    total = total + x\nwithdraw("a", total)'),
        "bank_int_trunc": ("b.max_spend(3)", 'withdraw("a", int(3.9))'),
        "bank_round_half": ("b.max_spend(3)", 'withdraw("a", round(3.5))'),
        "bank_bool_amount": ("b.max_spend(1)", 'withdraw("a", int(True) + True)'),
        "bank_items_loop": ("b.max_spend(2)", 'd = {"a": 1, "b": 2}\nfor k, v in d.items():\n    withdraw("a", v)'),
        "bank_dict_overwrite_loop": ("b.max_spend(3)", 'd = {"a": 1, "b": 2}\nd["a"] = 0\nfor k in d:\n    withdraw("a", d[k] + 0)'),
        "bank_balance_twice": ("b.max_spend(10)", 'x = balance("a")\ny = balance("a")\nif x <= 5:\n    if y <= 5:\n        withdraw("a", x + y)'),
        "bank_balance_twice_assumed_equal": ("b.max_spend(5)", 'x = balance("a")\ny = balance("a")\nif x <= 5:\n    withdraw("a", y)'),
    },
    "email": {
        "email_unique_case": ("e.unique_recipients()", 'for a in ["x@y", "X@y".lower()]:\n    send_email(a, "m")'),
        "email_unique_set": ("e.unique_recipients()", 'for a in {"x@y", "x@y"}:\n    send_email(a, "m")'),
        "email_repeat_len": ("e.content_length_at_most(6)", 'send_email("a@x", "hi" * 3)'),
        "email_repeat_len_over": ("e.content_length_at_most(5)", 'send_email("a@x", "hi" * 3)'),
        "email_float_text_len": ("e.content_length_at_most(5)", 'send_email("a@x", f"{1e16}")'),
        "email_float_sum_len": ("e.content_length_at_most(18)", 'send_email("a@x", str(0.1 + 0.2))'),
        "email_strip_twice": ("e.recipient_at_most('a@x', 1)", 'send_email("a@x", "1")\nsend_email("a@x ".strip(), "2")'),
        "email_join_one": ("e.only(['a@x'])", 'send_email(",".join(["a@x"]), "m")'),
        "email_join_two": ("e.only(['a@x'])", 'send_email(",".join(["a", "@x"]), "m")'),
        "email_range_skip": ("e.at_most(1)", 'for i in range(2):\n    if i > 0:\n        send_email("a@x", str(i))'),
        "email_bool_text": ("e.content_length_at_most(4)", 'send_email("a@x", f"{True}")'),
        "email_bool_text_over": ("e.content_length_at_most(4)", 'send_email("a@x", f"{False}")'),
        "email_comprehension_sends": ("e.at_most(2)", 'xs = [send_email(a, "m") for a in ["a@x", "b@x", "c@x"]]'),
        "email_alias_list": ("e.only(['a@x'])", 'xs = ["a@x"]\nys = xs\nys.append("b@x")\nfor a in xs:\n    send_email(a, "m")'),
        "email_upper_sharp": ("e.content_length_at_most(1)", 'send_email("a@x", "ß".upper())'),
    },
    "trading": {
        "trade_where_int_for_bool": ("t.approvals_only_where({'approved': True})", 'list_approvals("d", {"approved": 1})'),
        "trade_where_float_for_bool": ("t.approvals_only_where({'approved': True})", 'list_approvals("d", {"approved": 1.0})'),
        "trade_where_extra_key": ("t.approvals_only_where({'approved': True})", 'list_approvals("d", {"approved": True, "x": 1})'),
        "trade_where_tuple_vs_list": ("t.approvals_only_where({'s': [1]})", 'list_approvals("d", {"s": (1,)})'),
        "trade_where_list_same": ("t.approvals_only_where({'s': [1]})", 'list_approvals("d", {"s": [1]})'),
        "trade_where_copy_mutated": ("t.approvals_only_where({'approved': True})", 'w = {"approved": True}\nw2 = dict(w)\nw2["approved"] = False\nlist_approvals("d", w)'),
        "trade_where_alias_mutated": ("t.approvals_only_where({'approved': True})", 'w = {"approved": True}\nv = w\nv["approved"] = False\nlist_approvals("d", w)'),
        "trade_where_mutated_after": ("t.approvals_only_where({'approved': True})", 'w = {"approved": True}\nlist_approvals("d", w)\nw["approved"] = False'),
        "trade_where_mutated_before": ("t.approvals_only_where({'approved': True})", 'w = {"approved": True}\nw["approved"] = False\nlist_approvals("d", w)'),
        "trade_where_key_order": ("t.approvals_only_where({'a': 1, 'b': 2})", 'list_approvals("d", {"b": 2, "a": 1})'),
        "trade_where_neg_zero": ("t.approvals_only_where({'a': 0.0})", 'list_approvals("d", {"a": -0.0})'),
        "trade_where_str_vs_int": ("t.approvals_only_where({'a': 1})", 'list_approvals("d", {"a": "1"})'),
        "trade_where_dup_key": ("t.approvals_only_where({'a': 2})", 'list_approvals("d", {"a": 1, "a": 2})'),
        "trade_where_int_float_key": ("t.approvals_only_where({'a': 2})", 'list_approvals("d", {"a": 2.0})'),
        "trade_sell_loop": ("t.orders_at_most(1)", 'for r in list_approvals("d", {}):\n    if r.shares > 0:\n        sell_shares(r.stock, r.shares)'),
        "trade_sell_loop_break": ("t.orders_at_most(1)", 'for r in list_approvals("d", {}):\n    if r.shares > 0:\n        sell_shares(r.stock, r.shares)\n        break'),
        "trade_desk_lower": ("t.approvals_only_desk('eq')", 'list_approvals("EQ".lower(), {})'),
        "trade_desk_from_row": ("t.approvals_only_desk('eq')", 'rs = list_approvals("eq", {})\nif len(rs) > 0:\n    list_approvals(rs[0].approver, {})'),
    },
    "cloud": {
        "cloud_hours_total": ("c.max_instance_hours(72)", 'for h in [24, 48]:\n    start_instance("us", "s", h)'),
        "cloud_hours_total_over": ("c.max_instance_hours(72)", 'for h in [24, 49]:\n    start_instance("us", "s", h)'),
        "cloud_region_lower": ("c.only_regions(['us'])", 'list_instances("us")\nstart_instance("US".lower(), "s", 1)'),
        "cloud_region_from_row": ("c.only_regions(['us'])", 'for r in list_instances("us"):\n    start_instance(r.region, "s", 1)'),
        "cloud_size_max": ("c.only_sizes(['s'])", 'start_instance("us", max(["s", "m"]), 1)'),
        "cloud_size_min": ("c.only_sizes(['s'])", 'start_instance("us", min(["s", "m"]), 1)'),
        "cloud_comprehension_starts": ("c.at_most_instances(2)", 'xs = [start_instance("us", "s", 1) for i in range(3)]'),
        "cloud_start_per_row": ("c.at_most_instances(20)", 'for r in list_instances("us"):\n    start_instance("us", "s", 1)'),
        "cloud_start_per_row_over": ("c.at_most_instances(19)", 'for r in list_instances("us"):\n    start_instance("us", "s", 1)'),
        "cloud_no_deletes_branch": ("c.no_deletes()", 'rs = list_instances("us")\nif len(rs) > 20:\n    delete_bucket("b")'),
        "cloud_no_deletes_running": ("c.no_deletes()", 'for r in list_instances("us"):\n    if r.running:\n        delete_bucket(r.instance_id + "x")'),
    },
}


# Provenance (to_contacts: every send goes to an address taken unchanged from a contact) through
# every expression form; the monitor judges provenance, the gen judge the value.


def _two(body: str) -> str:
    """BODY under ``if len(r) > 1:`` after ``r = contacts()``."""
    return "r = contacts()\nif len(r) > 1:\n" + "\n".join("    " + line for line in body.split("\n"))


GEN_PROVENANCE = {
    "prov_fstring": ("g.to_contacts()", _two('send(f"{r[0].email}", 1)')),
    "prov_concat_empty": ("g.to_contacts()", _two('send(r[0].email + "", 1)')),
    "prov_slice_all": ("g.to_contacts()", _two("send(r[0].email[0:], 1)")),
    "prov_join_one": ("g.to_contacts()", _two('send("".join([r[0].email]), 1)')),
    "prov_ifexp": ("g.to_contacts()", _two('send(r[0].email if read_flag("c") else r[1].email, 1)')),
    "prov_str_call": ("g.to_contacts()", _two("send(str(r[0].email), 1)")),
    "prov_lower": ("g.to_contacts()", _two("send(r[0].email.lower(), 1)")),
    "prov_strip": ("g.to_contacts()", _two("send(r[0].email.strip(), 1)")),
    "prov_list_elem": ("g.to_contacts()", _two("xs = [r[0].email, r[1].email]\nsend(xs[1], 1)")),
    "prov_dict_value": ("g.to_contacts()", _two('d = {"k": r[0].email}\nsend(d["k"], 1)')),
    "prov_dict_get_default": ("g.to_contacts()", _two('d = {"k": r[0].email}\nsend(d.get("z", r[1].email), 1)')),
    "prov_dict_key": ("g.to_contacts()", _two("d = {r[0].email: 1}\nfor k in d:\n    send(k, 1)")),
    "prov_set_elem": ("g.to_contacts()", _two("s = {r[0].email, r[1].email}\nfor x in s:\n    send(x, 1)")),
    "prov_set_dedup_first": ("g.to_contacts()", _two('s = {r[0].email, "x"}\nfor x in s:\n    if x != "x":\n        send(x, 1)')),
    "prov_literal_equal": ("g.to_contacts()", _two('if r[0].email == "a":\n    send("a", 1)')),
    "prov_helper_ident": ("g.to_contacts()", _two("send(ident(r[0].email), 1)")),
    "prov_helper_pick": ("g.to_contacts()", _two('send(pick(read_flag("c"), r[0].email, r[1].email), 1)')),
    "prov_first_or": ("g.to_contacts()", _two('send(first_or([r[0].email], "zz"), 1)')),
    "prov_or": ("g.to_contacts()", _two('send(r[0].email or r[1].email, 1)')),
    "prov_and": ("g.to_contacts()", _two('send(r[0].email and r[1].email, 1)')),
    "prov_max_strs": ("g.to_contacts()", _two("send(max(r[0].email, r[1].email), 1)")),
    "prov_sorted_comp": ("g.to_contacts()", _two("xs = [c.email for c in r]\nsend(xs[0], 1)")),
    "prov_comp_cond": ("g.to_contacts()", _two("xs = [c.email for c in r if c.vip]\nif len(xs) > 0:\n    send(xs[0], 1)")),
    "prov_tuple_unpack": ("g.to_contacts()", _two("a, b = r[0].email, r[1].email\nsend(b, 1)")),
    "prov_enumerate": ("g.to_contacts()", _two("for i, c in enumerate(r):\n    send(c.email, i + 1)")),
    "prov_loop_last": ("g.to_contacts()", _two("last = r[0].email\nfor c in r:\n    last = c.email\nsend(last, 1)")),
    "prov_merge_literal": ("g.to_contacts()", _two('x = r[0].email\nif read_flag("c"):\n    x = "lit"\nsend(x, 1)')),
    "prov_list_copy": ("g.to_contacts()", _two("xs = list([r[0].email])\nsend(xs[0], 1)")),
    "prov_min_list": ("g.to_contacts()", _two("send(min([c.email for c in r]), 1)")),
    "prov_set_literal_kept": ("g.to_contacts()", _two('s = {"lit", r[0].email}\nfor x in s:\n    if x == r[0].email:\n        send(x, 1)')),
    "prov_dict_literal_key_kept": ("g.to_contacts()", _two('d = {"lit": 1}\nd[r[0].email] = 2\nfor k in d:\n    if k == r[0].email:\n        send(k, 1)')),
    "prov_max_tie_literal_first": ("g.to_contacts()", _two('send(max("", r[0].email), 1)')),
    "prov_min_tie_literal_first": ("g.to_contacts()", _two('x = min("lit", r[0].email)\nif x == r[0].email:\n    send(x, 1)')),
    "prov_max_list_tie": ("g.to_contacts()", _two('x = max(["lit", r[0].email])\nif x == r[0].email:\n    send(x, 1)')),
    "prov_max_list_tie_tagged_first": ("g.to_contacts()", _two('x = max([r[0].email, "lit"])\nif x == r[0].email:\n    send(x, 1)')),
    "prov_set_add_literal_after": ("g.to_contacts()", _two('s = {r[0].email}\ns.add("lit")\nfor x in s:\n    if x == r[0].email:\n        send(x, 1)')),
    "prov_set_add_literal_before": ("g.to_contacts()", _two('s = {"lit"}\ns.add(r[0].email)\nfor x in s:\n    if x == r[0].email:\n        send(x, 1)')),
    "prov_dict_get_key_equal": ("g.to_contacts()", _two('d = {r[0].email: "lit"}\nx = d.get("lit", r[1].email)\nsend(x, 1)')),
    "prov_list_index_value": ("g.to_contacts()", _two('xs = ["lit", r[0].email]\nif "lit" in xs:\n    send(xs[xs.index(r[0].email)], 1)')),
    "prov_row_rebuilt": ("g.to_contacts()", _two("c = Contact(email=r[0].email, vip=True)\nsend(c.email, 1)")),
}

GEN.update(GEN_PROVENANCE)

# Contract arguments and effect arguments of other types than the contract's own (bool for int,
# int for float), and limits no run can meet (an empty sum is 0).
GEN.update({
    "arg_note_true_below_one": ("g.notes_below(1.0)", "note(True)"),
    "arg_note_true_below_two": ("g.notes_below(2.0)", "note(True)"),
    "arg_note_int_number": ("g.notes_are_numbers()", "note(1)"),
    "arg_pay_true": ("g.max_pay(1)", "pay(True)\npay(False)"),
    "arg_pay_true_over": ("g.max_pay(1)", "pay(True)\npay(True)"),
    "arg_limit_negative_empty": ("g.max_pay(-1)", "pass"),
    "arg_count_negative_empty": ("g.pays_at_most(-1)", "pass"),
    "arg_only_to_empty": ("g.only_to([])", 'if read_flag("c"):\n    send("a", 1)'),
    "arg_only_to_dup": ("g.only_to(['a', 'a'])", 'send("a", 1)'),
    "arg_never_to_empty_str": ("g.never_to('')", 'send("a"[1:], 1)'),
    "arg_notes_below_neg_zero": ("g.notes_below(0.0)", "note(-0.0)"),
    "arg_notes_below_neg_zero_ok": ("g.notes_below(0.5)", "note(-0.0)"),
    "arg_messages_bool_n": ("g.messages_at_most(1)", 'send("a", True)\nsend("b", False)'),
    "arg_locked_empty_key": ("g.locked_at_end('')", 'unlock("a"[0:0])'),
    "arg_all_locked_key_space": ("g.all_locked_at_end()", 'unlock(" a")\nlock(" a ".rstrip())'),
    "arg_kw_lock_unlock": ("g.locked_at_end('x')", 'pair(a=lock("x"), b=unlock("x"))'),
    "arg_unlock_then_lock_var": ("g.all_locked_at_end()", 'd = read_str("k")\nunlock(d)\nlock(d)'),
    "arg_unlock_var_lock_lit": ("g.all_locked_at_end()", 'd = read_str("k")\nunlock(d)\nlock("a")'),
})
HOST.update({
    "h_arg_spend_true": ("h.spend_under(2)", "spend(True)"),
    "h_arg_spend_true_over": ("h.spend_under(1)", "spend(True)"),
    "h_arg_spend_under_zero_empty": ("h.spend_under(0)", "pass"),
    "h_arg_post_len_zero": ("h.posts_short(0)", 'post("ab"[2:])'),
    "h_arg_tank_false_not_empty": ("h.tank_not_empty('t')", "store('t', False)"),
    "h_arg_tank_true_not_empty": ("h.tank_not_empty('t')", "store('t', True)"),
    "h_arg_tank_is_zero_initial": ("h.tank_is('t', 0)", "store('u', 1)\nstore('t', False)"),
})
EXAMPLES["bank"].update({
    "bank_arg_true_amount": ("b.max_spend(1)", 'withdraw("a", True)'),
    "bank_arg_true_amount_over": ("b.max_spend(0)", 'withdraw("a", True)'),
})
EXAMPLES["email"].update({
    "email_arg_only_dup": ("e.only(['a@x', 'a@x'])", 'send_email("a@x", "m")'),
    "email_unique_strip": ("e.unique_recipients()", 'send_email("a@x", "m")\nsend_email(" a@x".strip(), "m")'),
})

# The program's own exits: raise, assert, an early return, after an effect; target parameters.
GEN.update({
    "exit_raise_after_unlock": ("g.locked_at_end('front')", 'unlock("front")\nif read_int("k") > 5:\n    raise ValueError("x")\nlock("front")'),
    "exit_assert_after_unlock": ("g.locked_at_end('front')", 'unlock("front")\nassert read_int("k") < 5\nlock("front")'),
    "exit_return_after_unlock": ("g.locked_at_end('front')", 'unlock("front")\nif read_flag("c"):\n    return\nlock("front")'),
    "exit_return_before_unlock": ("g.locked_at_end('front')", 'if read_flag("c"):\n    return\nunlock("front")\nlock("front")'),
    "exit_helper_raises": ("g.locked_at_end('front')", 'unlock("front")\ncheck_small(read_int("k"))\nlock("front")'),
    "exit_raise_unreachable": ("g.locked_at_end('front')", 'unlock("front")\nif read_int("k") > 10:\n    raise ValueError("x")\nlock("front")'),
})
GEN_DEFS += '''
def check_small(n):
    if n > 5:
        raise ValueError("too big")
    return n

'''

# Float sums and distinct dict-valued keys: what the monitor computes must agree with the proof.
HOST.update({
    "h_measure_sum": ("h.measured_at_most(1.0)", "measure(0.5)\nmeasure(0.25)"),
    "h_measure_sum_over": ("h.measured_at_most(0.7)", "measure(0.5)\nmeasure(0.25)"),
    "h_measure_sum_int_arg": ("h.measured_at_most(1.0)", "measure(1)"),
    "h_measure_sum_tenths": ("h.measured_at_most(0.3)", "measure(0.1)\nmeasure(0.2)"),
    "h_measure_neg_zero": ("h.measured_at_most(0.0)", "measure(-0.0)"),
    "h_measure_ratio": ("h.measured_at_most(10.0)", "r = ratio()\nif r <= 5.0:\n    measure(r)"),
    "h_query_distinct": ("h.distinct_queries()", 'query({"a": 1})\nquery({"a": 2})'),
    "h_query_same": ("h.distinct_queries()", 'query({"a": 1})\nquery({"a": 1})'),
    "h_query_key_order": ("h.distinct_queries()", 'query({"a": 1, "b": 2})\nquery({"b": 2, "a": 1})'),
    "h_query_bool_value": ("h.distinct_queries()", 'query({"a": 1})\nquery({"a": True})'),
    "h_query_copy": ("h.distinct_queries()", 'w = {"a": 1}\nv = dict(w)\nv["a"] = 2\nquery(w)\nquery(v)'),
})

# Effects in odd places: f-string fields, comprehension conditions, default-filled helper calls,
# keyword calls in source order, nested helpers.
GEN.update({
    "odd_effect_in_fstring": ("g.pays_at_most(1)", 'send(f"{pay_and_count(1)}{pay_and_count(1)}", 1)'),
    "odd_effect_in_comp_cond": ("g.pays_at_most(1)", "xs = [i for i in range(3) if pay_and_count(i) > 2]"),
    "odd_effect_in_comp_cond_ok": ("g.pays_at_most(3)", "xs = [i for i in range(3) if pay_and_count(i) > 2]"),
    "odd_effect_in_and": ("g.pays_at_most(0)", 'if read_flag("c") and pay_and_count(1) > 0:\n    pass'),
    "odd_effect_in_or_short": ("g.pays_at_most(0)", "if True or pay_and_count(1) > 0:\n    pass"),
    "odd_effect_in_ifexp_branch": ("g.max_pay(1)", 'x = pay_and_count(1) if read_flag("c") else pay_and_count(2)'),
    "odd_effect_in_ifexp_branch_ok": ("g.max_pay(2)", 'x = pay_and_count(1) if read_flag("c") else pay_and_count(2)'),
    "odd_kw_helper_order": ("g.locked_at_end('x')", 'pick(b=lock("x"), a=unlock("x"), c=True)'),
    "odd_kw_helper_order_ok": ("g.locked_at_end('x')", 'pick(a=unlock("x"), b=lock("x"), c=True)'),
    "odd_nested_helper_pays": ("g.pays_at_most(1)", "x = pay_and_count(pay_and_count(0))"),
    "odd_effect_in_dict_key": ("g.pays_at_most(1)", 'd = {pay_and_count(1): 1, pay_and_count(1): 2}'),
    "odd_effect_in_subscript": ("g.max_pay(1)", "xs = [0, 0, 0]\nx = xs[pay_and_count(1)]"),
    "odd_effect_in_subscript_oob": ("g.locked_at_end('x')", 'unlock("x")\nxs = [0]\nx = xs[pay_and_count(1)]\nlock("x")'),
    "odd_effect_in_len_arg": ("g.pays_at_most(2)", 'n = len([pay_and_count(1), pay_and_count(1), pay_and_count(1)])'),
    "odd_effect_in_min_args": ("g.pays_at_most(2)", "x = min(pay_and_count(1), pay_and_count(2), pay_and_count(3))"),
    "odd_effect_in_chain_mid": ("g.pays_at_most(1)", "if 5 < pay_and_count(1) < 3:\n    pass"),
    "odd_unlock_result_index": ("g.locked_at_end('x')", 'xs = [0, 1, 2, 3]\nc = xs[unlock("x")]\nlock("x")'),
    "odd_unlock_result_div": ("g.locked_at_end('x')", 'c = 6 // unlock("x")\nlock("x")'),
    "odd_lock_in_loop_else": ("g.locked_at_end('x')", 'unlock("x")\nfor i in range(2):\n    if i == 5:\n        break\nelse:\n    lock("x")'),
    "odd_lock_in_loop_break": ("g.locked_at_end('x')", 'unlock("x")\nfor i in range(2):\n    if i == 1:\n        break\nelse:\n    lock("x")'),
})
