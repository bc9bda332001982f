"""Second red team's hostile programs (issue 10 §6, brief s3/I), as (guarantees, body) per name.

``GEN2_PROGRAMS`` run over the generative test layer (with the generator's header, redteam_programs'
``GEN_DEFS`` and ``DEFS`` below); ``TRICK`` over ``trick/`` (effects named print/len/max, two effects
named pay, contracts reading module globals), each with its own import lines. Classes: try/except/
finally, effect functions bound to other names, higher-order builtins with effects, closures and late
binding, recursion, %-formatting, str.format fields, f-string `=` and nested specs, container text,
integer and bool operator edges, -0.0, dict order after pop/update/merge, sorted stability with
reverse, slices with steps, starred unpacking, walrus, effects in conditions, Unicode digits and
string methods. Most guarantees are false on purpose; a sound prover must not prove them.
"""

from __future__ import annotations

GEN2_PROGRAMS: dict[str, tuple[str, str]] = {
 # try/except/finally, with, global: refused (statements.py) — must never prove
 "try_finally_pays": ("g.pays_at_most(0)", "try:\n    x = 1\nfinally:\n    pay(1)"),
 "try_except_swallow": ("g.locked_at_end('front')", 'unlock("front")\ntry:\n    x = [1][read_int("k")]\nexcept IndexError:\n    return\nlock("front")'),
 "try_return_in_finally": ("g.locked_at_end('front')", 'unlock("front")\ntry:\n    x = 1 // read_int("k")\nfinally:\n    return\nlock("front")'),
 "try_break_in_finally": ("g.pays_at_most(0)", "for i in range(3):\n    try:\n        break\n    finally:\n        pay(1)"),
 # effect functions through other names
 "fn_alias_effect": ("g.max_pay(1)", "f = pay\nf(5)"),
 "fn_alias_in_list": ("g.max_pay(1)", "fs = [pay]\nfs[0](5)"),
 "fn_alias_loop_target": ("g.max_pay(1)", "for f in [pay, note]:\n    f(5)"),
 "fn_alias_ifexp": ("g.max_pay(1)", 'f = pay if read_flag("c") else note\nf(5)'),
 "fn_alias_dict": ("g.max_pay(1)", 'd = {"p": pay}\nd["p"](5)'),
 "fn_alias_helper_arg": ("g.max_pay(1)", "apply(pay, 5)"),
 "fn_local_shadow_def": ("g.max_pay(1)", "def note(x):\n    pay(x)\nnote(5)"),
 "fn_lambda_wraps_effect": ("g.max_pay(1)", "f = lambda x: pay(x)\nf(5)"),
 "fn_sorted_key_effect": ("g.pays_at_most(0)", "xs = sorted([1, 2], key=lambda v: pay_and_count(v))"),
 "fn_max_key_effect": ("g.pays_at_most(1)", "x = max([1, 2, 3], key=lambda v: pay_and_count(v))"),
 "fn_map_effect": ("g.pays_at_most(0)", "xs = list(map(pay, [1, 2]))"),
 "fn_filter_effect": ("g.pays_at_most(0)", "xs = list(filter(pay_and_count, [1, 2]))"),
 "fn_any_short_circuit": ("g.pays_at_most(1)", "x = any([pay_and_count(1) > 0, pay_and_count(1) > 0])"),
 "fn_any_gen_short_circuit": ("g.pays_at_most(0)", "x = any(pay_and_count(v) > 0 for v in [1, 2])"),
 # closures, late binding
 "late_binding_lambdas": ("g.max_pay(1)", "fs = [lambda: i for i in range(3)]\npay(fs[0]())"),
 "late_binding_lambdas_ok": ("g.max_pay(2)", "fs = [lambda: i for i in range(3)]\npay(fs[0]())"),
 "late_binding_loop_lambda": ("g.max_pay(0)", "fs = []\nfor i in range(3):\n    fs.append(lambda: i)\npay(fs[0]())"),
 "closure_reads_later_value": ("g.max_pay(0)", "k = 0\nf = lambda: k\nk = 5\npay(f())"),
 "closure_default_captured": ("g.max_pay(0)", "k = 5\nf = lambda x=k: x\nk = 0\npay(f())"),
 "inner_def_reads_later": ("g.max_pay(0)", "k = 0\ndef f():\n    return k\nk = 5\npay(f())"),
 # recursion
 "recursion_deep_after_unlock": ("g.locked_at_end('front')", 'unlock("front")\nx = deep(3000)\nlock("front")'),
 "recursion_unbounded": ("g.locked_at_end('front')", 'unlock("front")\nx = deep(read_big("k"))\nlock("front")'),
 # formatting
 "fmt_debug_eq": ("g.never_to('1+1=2')", 'send(f"{1+1=}", 1)'),
 "fmt_debug_eq_spaces": ("g.never_to(\"x = 'a'\")", 'x = "a"\nsend(f"{x = }", 1)'),
 "fmt_debug_eq_float": ("g.never_to('x=0.5')", 'x = 0.5\nsend(f"{x=}", 1)'),
 "fmt_nested_spec": ("g.never_to('   ab')", 'w = 5\nsend(f"{\'ab\':>{w}}", 1)'),
 "fmt_percent_d": ("g.never_to('5')", 'send("%d" % 5, 1)'),
 "fmt_percent_s_tuple": ("g.never_to('a-b')", 'send("%s-%s" % ("a", "b"), 1)'),
 "fmt_percent_s_float": ("g.never_to('0.1')", 'send("%s" % 0.1, 1)'),
 "fmt_percent_r": ("g.never_to(\"'a'\")", 'send("%r" % "a", 1)'),
 "fmt_percent_bool_d": ("g.never_to('1')", 'send("%d" % True, 1)'),
 "fmt_percent_float_d": ("g.never_to('2')", 'send("%d" % 2.7, 1)'),
 "fmt_format_attr": ("g.never_to('5')", 'send("{0.real}".format(5), 1)'),
 "fmt_format_index": ("g.never_to('b')", 'send("{0[1]}".format(["a", "b"]), 1)'),
 "fmt_format_kw": ("g.never_to('a')", 'send("{x}".format(x="a"), 1)'),
 "fmt_format_spec": ("g.never_to('05')", 'send("{:02d}".format(5), 1)'),
 "fmt_format_bool": ("g.never_to('True')", 'send("{}".format(True), 1)'),
 "fmt_ascii_conv": ("g.never_to(\"'\\\\xe9'\")", 'send(f"{\'é\'!a}", 1)'),
 "fmt_str_conv_list": ("g.never_to(\"['a']\")", 'send(f"{[\'a\']!s}", 1)'),
 "fmt_list_text": ("g.never_to(\"[1, 'a', 0.5, True]\")", 'send(str([1, "a", 0.5, True]), 1)'),
 "fmt_dict_text": ("g.never_to(\"{'a': -0.0}\")", 'send(str({"a": -0.0}), 1)'),
 "fmt_tuple_one": ("g.never_to('(1,)')", 'send(str((1,)), 1)'),
 "fmt_set_text": ("g.never_to('{1, 2}')", 'send(str({2, 1}), 1)'),
 "fmt_empty_set_text": ("g.never_to('set()')", 'send(str(set()), 1)'),
 "fmt_str_repr_quotes": ("g.never_to('[\"it\\'s\"]')", 'send(str(["it\'s"]), 1)'),
 "fmt_none_text": ("g.never_to('None')", 'send(str(None), 1)'),
 "fmt_width_unicode": ("g.never_to(' é')", 'send(f"{\'é\':>2}", 1)'),
 "fmt_g_spec": ("g.never_to('1e+06')", 'send(f"{1000000.0:g}", 1)'),
 "fmt_percent_spec": ("g.never_to('50%')", 'send(f"{0.5:.0%}", 1)'),
 "fmt_int_x": ("g.never_to('ff')", 'send(f"{255:x}", 1)'),
 # integers
 "int_parse_spaces_underscore": ("g.max_pay(9)", 'pay(int(" 1_0 "))'),
 "int_parse_base16": ("g.max_pay(15)", 'pay(int("10", 16))'),
 "int_parse_base0": ("g.max_pay(15)", 'pay(int("0x10", 0))'),
 "int_parse_neg_zero": ("g.never_to('-0')", 'send(str(int("-0")), 1)'),
 "int_trunc_neg_half": ("g.never_to('-0')", "send(str(int(-0.5)), 1)"),
 "int_rshift_neg": ("g.max_pay(0)", "pay(-7 >> 1 + 4)"),
 "int_rshift_neg2": ("g.max_pay(0)", "pay((-7 >> 1) + 4)"),
 "int_invert": ("g.max_pay(0)", "pay(~-2)"),
 "int_pow_mod": ("g.max_pay(3)", "pay(pow(3, 2, 5))"),
 "int_pow_neg_exp": ("g.never_to('0.5')", "send(str(pow(2, -1)), 1)"),
 "int_abs_bool": ("g.never_to('True')", "send(str(abs(True)), 1)"),
 "int_neg_bool_text": ("g.never_to('-1')", "send(str(-True), 1)"),
 "int_floordiv_neg_unknown": ("g.max_pay(0)", 'n = read_int("k") + 1\npay((-n) // n + 1)'),
 "int_mod_neg_unknown": ("g.max_pay(0)", 'n = read_int("k") + 2\npay((-1) % n - n + 1)'),
 "int_round_neg_half": ("g.never_to('-0')", "send(str(round(-0.4)), 1)"),
 "int_round_int_ndigits": ("g.never_to('10')", "send(str(round(5, -1)), 1)"),
 "int_bool_and_int": ("g.never_to('True')", "send(str(True & 1), 1)"),
 "int_bool_and_bool": ("g.never_to('True')", "send(str(True & True), 1)"),
 "int_bool_xor": ("g.never_to('False')", "send(str(True ^ True), 1)"),
 "int_bool_or_merge": ("g.never_to('True')", 'x = read_flag("c") | True\nsend(str(x), 1)'),
 "int_bool_floordiv": ("g.never_to('1')", "send(str(True // True), 1)"),
 "int_bool_pow": ("g.never_to('1')", "send(str(True ** 2), 1)"),
 "int_bool_mul_str": ("g.never_to('a')", 'send("a" * True, 1)'),
 "int_divmod_bool": ("g.never_to('(1, 0)')", "send(str(divmod(True, 1)), 1)"),
 "int_float_eq_hash_key": ("g.never_to('b')", 'd = {1: "a"}\nd[1.0] = "b"\nsend(d[True], 1)'),
 "int_true_div_bool_text": ("g.never_to('1.0')", "send(str(True / True), 1)"),
 # floats
 "float_negzero_set_in": ("g.max_pay(0)", "if -0.0 in {0.0}:\n    pay(5)"),
 "float_negzero_set_text": ("g.never_to('{0.0}')", "send(str({0.0, -0.0}), 1)"),
 "float_max_negzero_first": ("g.never_to('-0.0')", "send(str(max(-0.0, 0.0)), 1)"),
 "float_sorted_negzero": ("g.never_to('-0.0')", "send(str(sorted([0.0, -0.0])[1]), 1)"),
 "float_tiny_text": ("g.never_to('1e-05')", "send(str(0.00001), 1)"),
 "float_underflow_text": ("g.never_to('0.0')", 'send(str(float("1e-400")), 1)'),
 "float_literal_inf": ("g.notes_below(1e308)", "note(1e309)"),
 "float_round_ndigits_neg_zero": ("g.never_to('-0.0')", "send(str(round(-0.04, 1)), 1)"),
 "float_mod_neg_zero": ("g.never_to('-0.0')", "send(str(-0.0 % 5), 1)"),
 "float_floordiv_inf": ("g.notes_are_numbers()", "note(1.0 // math.inf)"),
 "float_mod_inf": ("g.never_to('-1.0')", "send(str(-1.0 % math.inf), 1)"),
 "float_int_huge_cmp": ("g.max_pay(0)", "if 2 ** 1024 > 1e308:\n    pay(5)"),
 "float_hash_eq_key_nan": ("g.max_pay(0)", 'n = float("nan")\nd = {n: 1}\npay(len(d) - 1 + d.get(n, 0))'),
 # dicts
 "dict_pop_reinsert_order": ("g.never_to('a')", 'd = {"a": 1, "b": 2}\nd.pop("a")\nd["a"] = 1\nsend(list(d)[0], 1)\nsend("b", 0)'),
 "dict_popitem_last": ("g.never_to('b')", 'd = {"a": 1, "b": 2}\nk, v = d.popitem()\nsend(list(d)[0], 1)\nsend(k, 0)'),
 "dict_update_order": ("g.never_to('b')", 'd = {"a": 1}\nd.update({"b": 2, "a": 3})\nsend(list(d)[0], 1)'),
 "dict_merge_op_order": ("g.never_to('b')", 'd = {"a": 1} | {"b": 2, "a": 3}\nsend(list(d)[0], 1)'),
 "dict_merge_value": ("g.max_pay(1)", 'd = {"a": 1} | {"a": 3}\npay(d["a"])'),
 "dict_star_merge": ("g.max_pay(1)", 'd = {**{"a": 1}, "a": 3}\npay(d["a"])'),
 "dict_star_merge_order": ("g.never_to('b')", 'd = {**{"a": 1, "b": 2}, "b": 3, "a": 4}\nsend(list(d)[0], 1)'),
 "dict_fromkeys_shared": ("g.max_pay(1)", 'd = dict.fromkeys(["a", "b"], [1])\nd["a"].append(9)\npay(d["b"][-1])'),
 "dict_key_true_then_1": ("g.never_to('1')", 'd = {True: "a"}\nd[1] = "b"\nsend(str(list(d)[0]), 1)'),
 "dict_in_place_or": ("g.max_pay(1)", 'd = {"a": 1}\nd |= {"a": 9}\npay(d["a"])'),
 "dict_setdefault_existing": ("g.max_pay(1)", 'd = {"a": 9}\npay(d.setdefault("a", 1))'),
 "dict_delete_loop_key": ("g.pays_at_most(1)", 'd = {"a": 1, "b": 2}\nfor k in d:\n    del d["b"]\n    pay(1)'),
 # sorted / min / max
 "sorted_reverse_stable": ("g.never_to('b')", 'xs = sorted([(1, "a"), (1, "b")], key=lambda t: t[0], reverse=True)\nsend(xs[0][1], 1)'),
 "sort_method_reverse_stable": ("g.never_to('b')", 'xs = [(1, "a"), (1, "b")]\nxs.sort(key=lambda t: t[0], reverse=True)\nsend(xs[0][1], 1)'),
 "sorted_reverse_plain_mixed": ("g.never_to('True')", "send(str(sorted([1, True], reverse=True)[0]), 1)"),
 "reversed_sorted": ("g.never_to('True')", "send(str(list(reversed(sorted([True, 1])))[0]), 1)"),
 "min_key_tie_first": ("g.never_to('b')", 'send(min(["a", "b"], key=lambda s: 0), 1)'),
 "max_key_reverse_tie": ("g.never_to('b')", 'send(max(["a", "b"], key=len), 1)'),
 "max_default": ("g.max_pay(0)", "pay(max([], default=5))"),
 "min_default_key": ("g.max_pay(0)", "pay(min([], key=abs, default=5))"),
 "sorted_strings_case": ("g.never_to('B')", 'send(sorted(["a", "B"])[1], 1)'),
 "sorted_tuple_nan": ("g.notes_are_numbers()", 'xs = sorted([float("nan"), 1.0])\nnote(xs[0])'),
 "max_nan_list_first": ("g.notes_are_numbers()", 'note(max([float("nan"), 1.0]))'),
 # slicing
 "slice_neg_step": ("g.never_to('ca')", 'send("abc"[::-2], 1)'),
 "slice_huge_start": ("g.never_to('')", 'send("abc"[10 ** 20:], 1)'),
 "slice_neg_huge": ("g.never_to('ab')", 'send("abc"[-100:2], 1)'),
 "slice_rev_bounds": ("g.never_to('cb')", 'send("abcd"[2:0:-1], 1)'),
 "slice_rev_empty": ("g.never_to('')", 'send("abc"[1:-1:-1], 1)'),
 "slice_step_assign_mismatch": ("g.locked_at_end('front')", 'unlock("front")\nxs = [1, 2, 3]\nxs[::2] = [9]\nlock("front")'),
 "slice_step_assign": ("g.max_pay(1)", "xs = [1, 1, 1]\nxs[::2] = [9, 9]\npay(xs[2])"),
 "slice_del_step": ("g.max_pay(1)", "xs = [1, 9, 1]\ndel xs[::2]\npay(xs[0])"),
 "slice_zero_step": ("g.locked_at_end('front')", 'unlock("front")\nx = "abc"[::0]\nlock("front")'),
 "slice_unknown_step": ("g.locked_at_end('front')", 'unlock("front")\nx = "abc"[::read_int("k")]\nlock("front")'),
 "slice_assign_grows": ("g.pays_at_most(2)", "xs = [1, 2]\nxs[5:] = [3]\nfor x in xs:\n    pay(x)"),
 "slice_list_neg_step_unknown": ("g.max_pay(1)", 'xs = [1, 9][::-1]\npay(xs[-1])\nxs = [0, 1, 2, 9]\npay(xs[read_int("k") % 3::-1][0] * 0)'),
 # starred unpacking
 "star_rest_list": ("g.max_pay(1)", "a, *b = [1, 9]\npay(b[0])"),
 "star_head": ("g.max_pay(1)", "*a, b = [9, 1]\npay(a[0])"),
 "star_empty_after_unlock": ("g.locked_at_end('front')", 'unlock("front")\na, *b, c = read_list("k")\nlock("front")'),
 "star_mid_text": ("g.never_to('[]')", 'a, *b, c = "xy"\nsend(str(b), 1)'),
 "star_call_effect": ("g.max_pay(1)", "pay(*[5])"),
 "star_call_kw_effect": ("g.max_pay(1)", 'pay(**{"amount": 5})'),
 "star_list_display": ("g.pays_at_most(2)", "for x in [*[1, 2], *[3]]:\n    pay(x)"),
 "unpack_too_many": ("g.locked_at_end('front')", 'unlock("front")\na, b = read_list("k")\nlock("front")'),
 "unpack_str": ("g.never_to('b')", 'a, b = "ab"\nsend(b, 1)'),
 "unpack_dict_keys": ("g.never_to('b')", 'a, b = {"a": 1, "b": 2}\nsend(b, 1)'),
 "unpack_set": ("g.never_to('9')", "a, b = {1, 9}\nsend(str(b), 1)"),
 "unpack_nested": ("g.max_pay(1)", "(a, (b, c)) = (1, (2, 9))\npay(c)"),
 "unpack_swap_index": ("g.max_pay(1)", "xs = [1, 9]\ni = 0\ni, xs[i] = 1, 5\npay(xs[0])"),
 # short circuit / walrus / conditions
 "walrus_in_condition": ("g.max_pay(1)", "if (n := 5) > 3:\n    pay(n)"),
 "walrus_in_comprehension": ("g.max_pay(1)", "ys = [(t := x) for x in [1, 9]]\npay(t)"),
 "and_chain_effect": ("g.pays_at_most(1)", "x = pay_and_count(1) and pay_and_count(1) and 0"),
 "or_returns_first_truthy_effect": ("g.max_pay(1)", "pay((0 or 5) and 1)\npay(0 or [] or 5)"),
 "not_list_empty": ("g.max_pay(0)", "if not [0]:\n    pass\nelse:\n    pay(5)"),
 "ifexp_effect_cond": ("g.pays_at_most(0)", "x = 1 if pay_and_count(1) else 2"),
 "assert_effect": ("g.pays_at_most(0)", "assert pay_and_count(1) > 0"),
 "while_cond_effect": ("g.pays_at_most(2)", "while pay_and_count(1) < 0:\n    pass\nwhile pay_and_count(1) > 5:\n    pass\nx = pay_and_count(1)"),
 "while_else_break_effect": ("g.pays_at_most(1)", "i = 0\nwhile i < 2:\n    i += 1\n    if pay_and_count(i) == 3:\n        break\nelse:\n    pay(1)"),
 # strings
 "str_in_unicode_fold": ("g.max_pay(0)", 'if "ﬁ" in "fi":\n    pay(5)'),
 "str_isdigit_int_mismatch": ("g.locked_at_end('front')", 'unlock("front")\ns = "①"\nif s.isdigit():\n    x = int(s)\nlock("front")'),
 "str_isnumeric_int": ("g.locked_at_end('front')", 'unlock("front")\ns = "½"\nif s.isnumeric():\n    x = int(s)\nlock("front")'),
 "str_isdecimal_int": ("g.max_pay(2)", 's = "٣"\nif s.isdecimal():\n    pay(int(s))'),
 "str_split_maxsplit": ("g.never_to('b c')", 'send("a b c".split(" ", 1)[1], 1)'),
 "str_rsplit": ("g.never_to('a b')", 'send("a b c".rsplit(" ", 1)[0], 1)'),
 "str_partition": ("g.never_to('b=c')", 'send("a=b=c".partition("=")[2], 1)'),
 "str_splitlines_ff": ("g.max_pay(1)", 'pay(len("a\\x0cb".splitlines()))'),
 "str_strip_unicode_space": ("g.never_to('a')", 'send("\\u00a0a".strip(), 1)'),
 "str_join_set": ("g.never_to('b,a')", 'send(",".join({"b", "a"}), 1)'),
 "str_join_dict": ("g.never_to('a,b')", 'send(",".join({"a": 1, "b": 2}), 1)'),
 "str_zfill": ("g.never_to('-05')", 'send("-5".zfill(3), 1)'),
 "str_center": ("g.never_to(' a  ')", 'send("a".center(4), 1)'),
 "str_expandtabs": ("g.never_to('a       b')", 'send("a\\tb".expandtabs(), 1)'),
 "str_endswith_tuple": ("g.max_pay(0)", 'if "ab".endswith(("x", "b")):\n    pay(5)'),
 "str_removeprefix": ("g.never_to('b')", 'send("ab".removeprefix("a"), 1)'),
 "str_compare_unicode": ("g.max_pay(0)", 'if "é" > "z":\n    pay(5)'),
 "str_len_surrogate": ("g.max_pay(1)", 'pay(len("😀"))'),
 "str_lower_unknown_eq": ("g.locked_at_end('front')", 's = read_str("k")\nif s.lower() == "front":\n    unlock(s)\nlock("front")'),
 # containers: identity, is, copy, nested
 "is_same_literal_list": ("g.max_pay(0)", "a = [1]\nb = [1]\nif a is not b:\n    pay(5)"),
 "is_int_small": ("g.max_pay(0)", "a = 5\nb = 5\nif a is b:\n    pay(5)"),
 "eq_list_tuple": ("g.max_pay(0)", "if [1] != (1,):\n    pay(5)"),
 "in_dict_values": ("g.max_pay(0)", 'if 1 in {"a": 1}.values():\n    pay(5)'),
 "list_mul_alias_inner": ("g.max_pay(1)", "a = [[0]] * 2\na[0][0] = 9\npay(a[1][0])"),
 "list_nested_copy_shallow": ("g.max_pay(1)", "a = [[1]]\nb = a.copy()\nb[0].append(9)\npay(a[0][-1])"),
 "list_comp_nested_alias": ("g.max_pay(1)", "inner = [1]\na = [inner for _ in range(2)]\na[0].append(9)\npay(a[1][-1])"),
 "list_remove_first_equal": ("g.never_to('True')", "xs = [1, True]\nxs.remove(True)\nsend(str(xs[0]), 1)"),
 "list_index_bool": ("g.max_pay(0)", "pay([0, 1, True].index(True))"),
 "list_extend_str": ("g.max_pay(1)", 'xs = []\nxs.extend("ab")\npay(len(xs))'),
 "list_insert_huge": ("g.never_to('9')", "xs = [1, 2]\nxs.insert(10 ** 20, 9)\nsend(str(xs[-1]), 1)"),
 "list_pop_neg": ("g.max_pay(1)", "xs = [1, 9]\npay(xs.pop(-1))"),
 "tuple_concat_text": ("g.never_to('(1, 2)')", "send(str((1,) + (2,)), 1)"),
 "range_len_huge": ("g.max_pay(0)", "pay(len(range(0, 10, 3)) - 4)"),
 "range_index": ("g.max_pay(0)", "pay(range(5, 0, -2)[1] - 3)"),
 "range_in": ("g.max_pay(0)", "if 4 in range(0, 10, 2):\n    pay(5)"),
 "range_eq": ("g.max_pay(0)", "if range(0) == range(2, 1):\n    pay(5)"),
 "zip_uneven": ("g.pays_at_most(1)", "for a, b in zip([1, 2], [3]):\n    pay(a)"),
 "enumerate_str": ("g.never_to('1b')", 'for i, c in enumerate("ab"):\n    send(f"{i}{c}", 1)'),
 "set_discard_missing": ("g.max_pay(0)", "s = {1}\ns.discard(2)\npay(len(s) - 1)"),
 "set_union_order": ("g.never_to('2')", "s = {1} | {2, 1}\nfor x in s:\n    send(str(x), 1)\n    break"),
 "set_sym_diff": ("g.max_pay(1)", "s = {1, 2} ^ {2, 3}\npay(len(s))"),
 "set_pop_first": ("g.never_to('2')", "s = {2, 1}\nsend(str(s.pop()), 1)"),
 "set_sorted_mixed": ("g.never_to('True')", "send(str(sorted({1, True})[0]), 1)"),
 "frozenset_key": ("g.never_to('b')", 'd = {frozenset([1, 2]): "a"}\nsend(d.get(frozenset([2, 1]), "b"), 1)'),
 "bool_of_dict_view": ("g.max_pay(0)", "if {}.keys():\n    pay(5)"),
 "len_of_dict_merge_true": ("g.max_pay(1)", "pay(len({1: 'a', True: 'b', 1.0: 'c'}))"),
 "chained_compare_in": ("g.max_pay(0)", "if 1 in [1] in [[1]]:\n    pay(5)"),
 "chained_not_in": ("g.max_pay(0)", "if 1 not in [2] not in [[2]]:\n    pay(5)"),
 "compare_list_lt": ("g.max_pay(0)", "if [1, 2] < [1, 2, 0]:\n    pay(5)"),
 "compare_str_mixed_raise": ("g.locked_at_end('front')", 'unlock("front")\nx = sorted([1, "a"])\nlock("front")'),
 "compare_none_raise": ("g.locked_at_end('front')", 'unlock("front")\nx = None\nif read_flag("c"):\n    x = 1\ny = x < 2\nlock("front")'),
 "hash_list_in_set": ("g.locked_at_end('front')", 'unlock("front")\nx = [1] in {1}\nlock("front")'),
 "print_effect_free": ("g.pays_at_most(0)", 'print(pay_and_count(1))'),
 "print_sep_end": ("g.pays_at_most(0)", 'print("a", end="")'),
}
DEFS = '''

def apply(f, x):
    return f(x)


def deep(n):
    if n > 0:
        return deep(n - 1) + 1
    return 0

'''
GEN2_PROGRAMS.update({
 "int_bool_and_false": ("g.never_to('0')", "send(str(True & False), 1)"),
 "int_bool_or_branch": ("g.max_pay(0)", 'x = read_flag("c") | read_flag("d")\nif x == 2:\n    pay(5)'),
 "int_bool_xor_unknown_text": ("g.never_to('1'); g.never_to('0')", 'send(str(read_flag("c") ^ True), 1)'),
 "int_bool_aug_and": ("g.never_to('1'); g.never_to('0')", 'x = read_flag("c")\nx &= True\nsend(str(x), 1)'),
 "int_bool_merged_or": ("g.never_to('1')", 'x = True if read_flag("c") else 1\nsend(str(x | False), 1)'),
 "int_bool_or_true_pays": ("g.max_pay(0)", 'if read_flag("c") | True:\n    pay(5)'),
 "int_bool_merged_or_true": ("g.never_to('True')", 'x = True if read_flag("c") else 1\nsend(str(x | False), 1)'),
})

TRICK_HEADER = """import clauz3
from tools.trick.trusted import contracts as t
"""
TRICK: dict[str, tuple[str, str, str]] = {
 # builtin names bound to trusted effects by import
 "tr_print_builtin": ("", "t.prints_at_most(0)", 'print("a")'),
 "tr_print_effect": ("from tools.trick.trusted.effects import print\n", "t.prints_at_most(1)", 'print("a")\nprint("b")'),
 "tr_print_effect_ok": ("from tools.trick.trusted.effects import print\n", "t.prints_at_most(2)", 'print("a")\nprint("b")'),
 "tr_len_effect_small": ("from tools.trick.trusted.effects import len, pay\n", "t.pays_at_most(0)", "if len([1, 2, 3, 4, 5]) == 5:\n    pay(1)"),
 "tr_len_effect_ne": ("from tools.trick.trusted.effects import len, pay\n", "t.pays_at_most(0)", "if len([1, 2, 3, 4, 5]) != 5:\n    pay(1)"),
 "tr_len_builtin_ne": ("from tools.trick.trusted.effects import pay\n", "t.pays_at_most(0)", "if len([1, 2, 3, 4, 5]) != 5:\n    pay(1)"),
 "tr_len_effect_count": ("from tools.trick.trusted.effects import len\n", "t.counts_at_most(0)", "n = len([1])"),
 "tr_len_effect_in_comp": ("from tools.trick.trusted.effects import len\n", "t.counts_at_most(1)", "xs = [len([i]) for i in range(2)]"),
 "tr_max_effect": ("from tools.trick.trusted.effects import max, pay\n", "t.pays_at_most(0)", "if max(7, 9) == 9:\n    pay(1)"),
 "tr_max_effect_ne": ("from tools.trick.trusted.effects import max, pay\n", "t.pays_at_most(0)", "if max(7, 9) != 9:\n    pay(1)"),
 "tr_max_builtin_list": ("from tools.trick.trusted.effects import max, pay\n", "t.picks_at_most(0)", "x = max([7, 9])"),
 # two effects named pay in two modules
 "tr_other_pay_not_counted": ("from tools.trick.trusted.other import pay\n", "t.pays_at_most(0)", "pay(1)\npay(1)"),
 "tr_other_pay_counted": ("from tools.trick.trusted.other import pay\n", "t.other_pays_at_most(1)", "pay(1)\npay(1)"),
 "tr_both_pays_aliased": ("from tools.trick.trusted.effects import pay as p1\nfrom tools.trick.trusted.other import pay as p2\n",
                          "t.pays_at_most(1); t.other_pays_at_most(2)", "p2(1)\np1(1)\np2(1)"),
 "tr_both_pays_aliased_over": ("from tools.trick.trusted.effects import pay as p1\nfrom tools.trick.trusted.other import pay as p2\n",
                               "t.pays_at_most(1)", "p1(1)\np2(1)\np1(1)"),
 "tr_module_attr_pays": ("from tools.trick.trusted import effects, other\n", "t.pays_at_most(1)", "other.pay(1)\neffects.pay(1)\nother.pay(1)"),
 "tr_module_attr_pays_over": ("from tools.trick.trusted import effects, other\n", "t.pays_at_most(1)", "effects.pay(1)\nother.pay(1)\neffects.pay(1)"),
 "tr_reimport_shadow": ("from tools.trick.trusted.effects import pay\nfrom tools.trick.trusted.other import pay\n", "t.other_pays_at_most(0)", "pay(1)"),
 "tr_reimport_shadow_2": ("from tools.trick.trusted.other import pay\nfrom tools.trick.trusted.effects import pay\n", "t.pays_at_most(0)", "pay(1)"),
 # contracts reading module globals the program can reach
 "tr_global_limit": ("from tools.trick.trusted.effects import pay\n", "t.under_limit()", "pay(2)"),
 "tr_global_limit_over": ("from tools.trick.trusted.effects import pay\n", "t.under_limit()", "pay(3)"),
 "tr_global_limit_rebound": ("from tools.trick.trusted.effects import pay\n", "t.under_limit()", "t.LIMIT = 100\npay(50)"),
 "tr_global_limit_module_level": ("from tools.trick.trusted.effects import pay\nt.LIMIT = 100\n", "t.under_limit()", "pay(50)"),
 "tr_global_list_appended": ("from tools.trick.trusted.effects import pay\n", "t.allowed_amounts()", "t.ALLOWED.append(50)\npay(50)"),
 "tr_global_list_imported": ("from tools.trick.trusted.effects import pay\nfrom tools.trick.trusted.contracts import ALLOWED\n", "t.allowed_amounts()", "ALLOWED.append(50)\npay(50)"),
 "tr_global_list_module_level": ("from tools.trick.trusted.effects import pay\nfrom tools.trick.trusted.contracts import ALLOWED\nALLOWED.append(50)\n", "t.allowed_amounts()", "pay(50)"),
 "tr_global_list_ok": ("from tools.trick.trusted.effects import pay\n", "t.allowed_amounts()", "pay(2)\npay(1)"),
 # guarantee arguments from program-level names the program then changes
 "tr_guarantee_arg_module_list": ("from tools.trick.trusted.effects import pay\nN = [1]\n", "t.pays_at_most(N[0])", "N[0] = 5\npay(1)\npay(1)"),
 "tr_guarantee_arg_module_int": ("from tools.trick.trusted.effects import pay\nN = 1\n", "t.pays_at_most(N)", "pay(1)\npay(1)"),
 # decorator games on the target
}


# str() of operator and builtin results on bools, -0.0 and int/float mixes, and format specs: each
# guarantee names the exact text the run sends, so any proof is a lie.

def nt(text: str, expr: str, pre: str = "") -> tuple[str, str]:
    return ("g.never_to(" + repr(text) + ")", pre + "send(str(" + expr + "), 1)")
B: dict[str, tuple[str, str]] = {}
cases = {
 # bools through builtins
 "b_max_bools": ("True", "max(True, False)"), "b_min_bools": ("False", "min(True, False)"),
 "b_max_list_bools": ("True", "max([False, True])"), "b_sorted_bools": ("False", "sorted([True, False])[0]"),
 "b_list_elem_bool": ("True", "[True][0]"), "b_dict_get_bool": ("True", 'dict(a=1).get("b", True)'),
 "b_get_bool": ("True", '{"a": 1}.get("b", True)'), "b_ifexp_bools": ("True", 'True if read_flag("c") else False'),
 "b_not_not_int": ("True", "not not 5"), "b_bool_call": ("True", "bool(5)"), "b_int_of_bool": ("1", "int(True)"),
 "b_abs_false": ("0", "abs(False)"), "b_sum_bool_start": ("True", "sum([], True)"), "b_sum_bool_one": ("1", "sum([True])"),
 "b_mul_bool": ("True", "True * 1"), "b_add_float_bool": ("1.5", "True + 0.5"), "b_neg_false": ("0", "-False"),
 "b_pos_true": ("1", "+True"), "b_invert_false": ("-1", "~False"), "b_lshift_true": ("2", "True << 1"),
 "b_rshift_true": ("0", "True >> 1"), "b_mod_true": ("0", "True % 1"), "b_floordiv_bool": ("1", "True // 1"),
 "b_and_value_bool": ("0", "True and 0"), "b_or_value_bool": ("True", "False or True"),
 "b_compare_result": ("True", "1 < 2"), "b_in_result": ("False", "1 in []"), "b_is_result": ("True", "None is None"),
 "b_len_eq": ("True", "len([1]) == 1"), "b_chain_result": ("True", "1 < 2 < 3"), "b_chain_false": ("False", "1 < 2 > 3"),
 "b_str_method_bool": ("True", '"a".isalpha()'), "b_startswith": ("True", '"ab".startswith("a")'),
 "b_any_result": ("True", "any([1])"), "b_all_empty": ("True", "all([])"),
 "b_round_bool_nd": ("1", "round(True, 0)"), "b_min_bool_int": ("False", "min(False, 0)"), "b_max_int_bool": ("1", "max(1, True)"),
 "b_unknown_flag_and": ("True", 'read_flag("c") and True'), "b_unknown_flag_or_int": ("1", 'read_flag("c") or 1'),
 # int vs float results
 "n_max_int_float": ("2.0", "max(1, 2.0)"), "n_min_int_float": ("1.0", "min(2, 1.0)"), "n_sum_mixed": ("3.0", "sum([1, 2.0])"),
 "n_round_nd0": ("2.0", "round(2.5, 0)"), "n_round_int_nd0": ("2", "round(2, 0)"), "n_floor_float": ("2", "math.floor(2.0)"),
 "n_pow_float": ("4.0", "2 ** 2.0"), "n_float_int": ("1.0", "float(1)"), "n_true_div": ("5.0", "10 / 2"),
 "n_floordiv_float": ("5.0", "10 // 2.0"), "n_floordiv_neg_float": ("-4.0", "-7 // 2.0"), "n_mod_neg_float": ("-1.0", "7 % -2.0"),
 "n_zero_times_neg": ("-0.0", "0.0 * -1"), "n_neg_zero_plus_zero": ("0.0", "-0.0 + 0.0"), "n_neg_zero_minus_zero": ("-0.0", "-0.0 - 0.0"),
 "n_int_zero_times_negf": ("-0.0", "0 * -1.0"), "n_neg_float_zero": ("-0.0", "-(0.0)"), "n_neg_int_zero": ("0", "-(0)"),
 "n_round_neg_half_nd": ("-0.0", "round(-0.5, 0)"), "n_round_neg_small_nd": ("-0.0", "round(-0.04, 1)"),
 "n_ceil_neg_half": ("0", "math.ceil(-0.5)"), "n_int_neg_zero": ("0", "int(-0.0)"), "n_float_neg_zero_text": ("-0.0", 'float("-0")'),
 "n_abs_neg_int": ("5", "abs(-5)"), "n_abs_float": ("5.0", "abs(-5.0)"), "n_max_neg_zero": ("0.0", "max(0.0, -0.0)"),
 "n_min_neg_zero": ("-0.0", "min(-0.0, 0.0)"), "n_neg_zero_sum": ("-0.0", "sum([-0.0])"), "n_neg_zero_sum_start": ("-0.0", "sum([-0.0], -0.0)"),
 "n_mul_neg_zero_int": ("-0.0", "-0.0 * 5"), "n_div_neg_zero": ("-0.0", "-0.0 / 5"), "n_div_neg_int": ("-0.0", "0 / -5"),
 "n_mod_neg_zero_neg": ("-0.0", "0.0 % -5"), "n_floordiv_neg_zero": ("-0.0", "-0.0 // 5"), "n_floordiv_zero_neg": ("-0.0", "0.0 // -5"),
 "n_pow_neg_zero": ("-0.0", "(-0.0) ** 3"), "n_pow_neg_zero_even": ("0.0", "(-0.0) ** 2"), "n_big_float_int": ("1e+16", "10.0 ** 16"),
 "n_int_float_sum_big": ("9007199254740992.0", "2.0 ** 53 + 1"), "n_float_floor_big": ("9007199254740993", "math.floor(2.0 ** 53 + 1)"),
 "n_trunc_big": ("10000000000000000", "math.trunc(1e16)"), "n_float_eq_int_text": ("1", "1.0 * 1"),
 "n_max_float_tie_first": ("1", "max(1, 1.0)"), "n_min_float_tie_first": ("1.0", "min(1.0, 1)"), "n_sorted_mixed_tie": ("1", "sorted([1.0, 1])[0]"),
 "n_unknown_int_div_text": ("0.5", 'read_int("k") / 2'), "n_unknown_int_floor_text": ("0.0", 'read_int("k") // 1.0'),
 "n_neg_unknown_zero": ("-0.0", '-(read_int("k") * 0.0)'), "n_neg_unknown_zero_f": ("-0.0", '-read_float("k")'),
 # format specs
 "f_negzero_0f": ("-0", 'f"{-0.0:.0f}"'), "f_negzero_g": ("-0", 'f"{-0.0:g}"'), "f_true_g": ("1", 'f"{True:g}"'),
 "f_z_option": ("0.0", 'f"{-0.0:z.1f}"'), "f_n_spec": ("1000", 'f"{1000:n}"'), "f_c_spec": ("A", 'f"{65:c}"'),
 "f_str_precision": ("a", 'f"{\'ab\':.1}"'), "f_big_e": ("1.000000e+30", 'f"{10 ** 30:e}"'), "f_float_f_big": ("10000000000000000.000000", 'f"{1e16:f}"'),
 "f_bool_s_spec": ("True", 'f"{True:s}"'), "f_bool_empty_spec": ("True", 'f"{True:}"'), "f_int_plus": ("+5", 'f"{5:+}"'),
 "f_bool_plus": ("+1", 'f"{True:+}"'), "f_int_b": ("101", 'f"{5:b}"'), "f_int_hash_x": ("0xff", 'f"{255:#x}"'),
 "f_int_underscore": ("1_000", 'f"{1000:_}"'), "f_float_percent": ("50.000000%", 'f"{0.5:%}"'), "f_float_round_spec": ("0.1", 'f"{0.125:.2}"'),
 "f_float_fill": ("**1", 'f"{1:*>3}"'), "f_float_sign_space": (" 1", 'f"{1: }"'), "f_neg_zero_int_spec": ("0", 'f"{-0:d}"'),
 "f_unknown_float_spec": ("nan", 'f"{read_float(\'k\'):.1f}"'), "f_unknown_float_spec_inf": ("inf", 'f"{read_float(\'k\'):.1f}"'),
 "f_unknown_int_d": ("10", 'f"{read_int(\'k\'):d}"'), "f_fstring_bool_unknown": ("True", 'f"{read_flag(\'c\')}"'),
 "f_str_of_fstring_float": ("0.1", 'f"{0.1}"'), "f_repr_bool": ("True", 'f"{True!r}"'), "f_nested_fstring": ("ab", 'f"{f\'{\'a\'}b\'}"'),
 "f_fstring_concat": ("ab", '"a" f"b"'), "f_bytes_like_escape": ("\\n", 'f"\\\\n"'),
}
for name, (text, expr) in cases.items():
    B[name] = nt(text, expr)
B.update({
 "n_div_zero_by_neg_unknown": nt("-0.0", '0 / (read_int("k") - 20)'),
 "n_div_zero_by_neg_unknown_ok": nt("0.0", '0 / (read_int("k") - 20)'),
 "n_div_unknown_zero_by_neg": nt("-0.0", '(read_int("k") * 0) / -5'),
 "n_div_int_zero_neg_ok": nt("0.0", "0 / -5"),
 "n_div_zero_pos": nt("-0.0", "0 / 5"),
 "n_div_neg_tiny": nt("-0.0", "-1 / 10 ** 400"),
 "n_div_neg_tiny_ok": nt("0.0", "-1 / 10 ** 400"),
})
GEN2_PROGRAMS.update(B)

# int/float comparisons and conversions past 2**53 (Python compares exactly; conversion rounds half-even).

B3: dict[str, tuple[str, str]] = {
 "m_big_plus_zero": nt("9007199254740992.0", "(2 ** 53 + 1) + 0.0"),
 "m_big_half_even": nt("9007199254740996.0", "(2 ** 53 + 3) * 1.0"),
 "m_big_float_call": nt("9007199254740992.0", "float(2 ** 53 + 1)"),
 "m_max_big_int_float": nt("9007199254740993", "max(2.0 ** 53, 2 ** 53 + 1)"),
 "m_min_big_int_float": nt("9007199254740992.0", "min(2 ** 53 + 1, 2.0 ** 53)"),
 "m_sorted_big": nt("9007199254740993", "sorted([2 ** 53 + 1, 2.0 ** 53])[1]"),
 "m_cmp_big_gt": ("g.max_pay(0)", "if 2 ** 53 + 1 > 2.0 ** 53:\n    pay(5)"),
 "m_cmp_big_le": ("g.max_pay(0)", "if not (2 ** 53 + 1 <= 2.0 ** 53):\n    pay(5)"),
 "m_cmp_big_in": ("g.max_pay(0)", "if 2 ** 53 + 1 not in [2.0 ** 53]:\n    pay(5)"),
 "m_key_big": nt("b", 'd = {2.0 ** 53: "a"}\nd[2 ** 53 + 1] = "b"\nx = d[2 ** 53 + 1]', "") ,
 "m_unknown_big_eq": ("g.max_pay(0)", 'n = read_big("k")\nif n == n * 1.0:\n    pass\nelse:\n    pay(5)'),
 "m_unknown_big_lt": ("g.max_pay(0)", 'n = read_big("k")\nif n < n + 0.0:\n    pay(5)'),
 "m_int_float_sub": nt("0.0", "(2 ** 53 + 1) - 2.0 ** 53"),
 "m_float_int_floor_cmp": ("g.max_pay(0)", "x = 1e16 + 1\nif math.floor(x) != 10 ** 16:\n    pay(5)"),
 "m_round_big": nt("9007199254740993", "round(2 ** 53 + 1)"),
 "m_round_big_nd": nt("9007199254740990", "round(2 ** 53 + 1, -1)"),
 "m_int_of_big_float": nt("9007199254740992", "int(2.0 ** 53 + 1)"),
 "m_huge_int_to_float_overflow": ("g.locked_at_end('front')", 'unlock("front")\nx = 10 ** 400 * 1.0\nlock("front")'),
 "m_huge_int_cmp_float": ("g.max_pay(0)", "if 10 ** 400 > 1e308:\n    pay(5)"),
 "m_sum_big_float": nt("9007199254740992.0", "sum([2.0 ** 53, 1])"),
 "m_sum_big_int_first": nt("9007199254740994.0", "sum([2 ** 53 + 1, 1.0])"),
}
B3["m_key_big"] = ("g.never_to('b')", 'd = {2.0 ** 53: "a"}\nd[2 ** 53 + 1] = "b"\nsend(d[2 ** 53 + 1], 1)')
GEN2_PROGRAMS.update(B3)


# A sweep: every operator and numeric builtin over a pool of bool/int/float edge values, folded as
# constants, through a branch merge, and through a helper; CPython's own text of the result is what
# the run sends, so `never_to(<that text>)` is a lie the prover must never prove, and
# `never_to("x" + <that text>)` a truth it proves only if it knows the text exactly.
SWEEP_VALUES = ("True", "False", "0", "1", "-1", "3", "0.0", "-0.0", "0.5", "-1.5", "1e16", "(2 ** 53 + 1)", "2.5")
SWEEP_OPS = ("+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>", "<", "==", "and", "or")
SWEEP_UNARY = ("-{}", "+{}", "~{}", "not {}", "abs({})", "int({})", "float({})", "bool({})", "round({})", "round({}, 1)",
               "str({})", "math.floor({})", "math.ceil({})", "math.trunc({})")
SWEEP_CALLS = ("min({0}, {1})", "max({0}, {1})", "sum([{0}, {1}])", "sorted([{0}, {1}])[0]", "sum([{0}], {1})",
               "pow({0}, {1})", "divmod({0}, {1})[0]", "[{0}, {1}].count(True)", "[{0}, {1}].index({0})")
_HUGE = ("2 ** 53 + 1", "1e16")  # as an exponent or a shift: too big to compute here (refused there)


def _text(expr: str) -> str | None:
    import math

    if any(f"{op} ({h})" in expr or f"{op} {h}" in expr for op in ("**", "<<") for h in _HUGE) or (
            expr.startswith("pow(") and any(f", {h})" in expr or f", ({h}))" in expr for h in _HUGE)):
        return None
    try:
        value = eval(expr, {"math": math})  # our own constant expressions
        text = str(value)
    except Exception:  # raises in CPython: not a text the run sends
        return None
    return text if value == value and len(text) < 60 else None  # NaN texts vary by sign; long ones add nothing


def sweep(every: int = 1) -> dict[str, tuple[str, str, str]]:
    """name -> (the lie, the truth, body); every N-th case."""
    import itertools

    exprs: list[tuple[str, str]] = []
    exprs += [(f"{a} {op} {b}", "const") for a, op, b in itertools.product(SWEEP_VALUES, SWEEP_OPS, SWEEP_VALUES)]
    for u, a in itertools.product(SWEEP_UNARY, SWEEP_VALUES):
        exprs += [(u.format(a), "const"), (u.format(a), "merge"), (u.format(a), "helper")]
    exprs += [(f.format(a, b), "const") for f, a, b in itertools.product(SWEEP_CALLS, SWEEP_VALUES, SWEEP_VALUES)]
    exprs += [(f"{a} {op} {b}", "merge") for a, op, b in itertools.product(SWEEP_VALUES[:8], SWEEP_OPS, SWEEP_VALUES[:8])]
    out: dict[str, tuple[str, str, str]] = {}
    for i, (expr, how) in enumerate(exprs):
        text = _text(expr)
        if text is None or i % every:
            continue
        body = {"const": f"send(str({expr}), 1)",
                "merge": f'x = ({expr}) if read_flag("c") else ({expr})\nsend(str(x), 1)',
                "helper": f"x = ident({expr})\nsend(str(x), 1)"}[how]
        out[f"sweep_{how}_{i}"] = (f"g.never_to({text!r})", f"g.never_to({'x' + text!r})", body)
    return out


# The same sweep over string methods, slices, comparisons and formatting of odd texts (ß, İ, ﬁ, ǅ,
# Arabic-Indic digits, a no-break space, a tab), folded as constants and through a branch merge.
STRING_VALUES = ('""', '"a"', '"Ab"', '" a "', '"ß"', '"İ"', '"ﬁ"', '"a,b"', '"10"', '"٣"', '"x\\ty"', '"ǅ"',
                 '"ab" * 2', '"\\u00a0a"')
STRING_UNARY = ("{}.upper()", "{}.lower()", "{}.title()", "{}.capitalize()", "{}.casefold()", "{}.swapcase()",
                "{}.strip()", "{}.lstrip()", "{}.rstrip()", "{}.split()", "{}.isdigit()", "{}.isalpha()",
                "{}.isalnum()", "{}.isspace()", "{}.islower()", "{}.isupper()", "len({})", "{}[::-1]", "{}[1:]",
                "{}[-1:]", "list({})", "sorted({})", "bool({})", "str({})", "{}.split(',')", "int({})", "float({})",
                "{} * 2", "{} * 0", "{}.startswith('a')", "{}.endswith('b')", "{}.find('a')", "{}.count('a')",
                "{}.replace('a', 'b')", "{}.strip('a')", "f'{{{}}}'", "f'{{{}:>3}}'", "max({})", "min({})",
                "{}.isdecimal()", "{}.isnumeric()", "ord({}[0])", "{}.join(['x', 'y'])", "{}.split('a')",
                "{}.rsplit()", "{}.index('a')")
STRING_BINARY = ("{} + {}", "{} < {}", "{} == {}", "{} in {}", "{} or {}", "{} and {}", "max({}, {})", "min({}, {})",
                 "{}.count({})", "{}.find({})", "{} != {}")


def string_sweep(every: int = 1) -> dict[str, tuple[str, str, str]]:
    """name -> (the lie, the truth, body) over the string pool; every N-th case."""
    import itertools
    import warnings

    exprs = [u.format(a) for u, a in itertools.product(STRING_UNARY, STRING_VALUES)]
    exprs += [b.format(x, y) for b, x, y in itertools.product(STRING_BINARY, STRING_VALUES, STRING_VALUES)]
    out: dict[str, tuple[str, str, str]] = {}
    for i, expr in enumerate(exprs):
        if i % every:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)  # `"10"[0]`-style cases CPython comments on
            text = _text(expr)
        if text is None:
            continue
        truth = f"g.never_to({'x' + text!r})"
        for how, body in (("const", f"send(str({expr}), 1)"),
                          ("merge", f'x = {expr} if read_flag("c") else {expr}\nsend(str(x), 1)')):
            out[f"strsweep_{how}_{i}"] = (f"g.never_to({text!r})", truth, body)
    return out


def raising_sweep() -> dict[str, tuple[str, str]]:
    """Every sweep expression that raises in CPython, between an unlock and the lock that would end the
    run safely: `locked_at_end` must never prove (the run ends at the raise with the door open)."""
    import itertools
    import math
    import warnings

    exprs = [f"{a} {op} {b}" for a, op, b in itertools.product(SWEEP_VALUES, SWEEP_OPS, SWEEP_VALUES)]
    exprs += [u.format(a) for u, a in itertools.product(SWEEP_UNARY, SWEEP_VALUES)]
    exprs += [f.format(a, b) for f, a, b in itertools.product(SWEEP_CALLS, SWEEP_VALUES, SWEEP_VALUES)]
    exprs += [u.format(a) for u, a in itertools.product(STRING_UNARY, STRING_VALUES)]
    out: dict[str, tuple[str, str]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # `"10"[0]`-style cases CPython comments on
        for i, expr in enumerate(exprs):
            if _text(expr) is not None or (any(h in expr for h in _HUGE)
                                           and any(op in expr for op in ("**", "<<", "pow"))):
                continue  # does not raise (or is too big to try here)
            try:
                eval(expr, {"math": math})  # our own constant expressions
                continue  # a NaN or a long text: no raise
            except Exception:  # it raises: the case we want
                pass
            out[f"raise_{i}"] = ("g.locked_at_end('front')", f'unlock("front")\nx = {expr}\nlock("front")')
    return out
