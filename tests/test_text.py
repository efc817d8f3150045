"""``autograder.text.neutral``: learner text shown beside the grader's words, with hidden characters visible."""

from autograder.text import neutral


def test_printable_text_in_any_script_comes_back_unchanged_with_its_line_breaks_and_tabs():
    for text in ["abc", "中文：形状 (3, 4)\n\tok", "x\u3000y a\xa0b"]:  # Zs spaces are shown as they are
        assert neutral(text) == text


def test_control_format_and_separator_characters_become_visible_escapes():
    assert neutral("a\u202eb") == "a\\u202eb"  # right-to-left override
    assert neutral("nul\x00") == "nul\\u0000"
    assert neutral("\u200b中") == "\\u200b中"  # zero-width space beside CJK text
    assert neutral("p\u2029q\U000f0000") == "p\\u2029q\\U000f0000"  # paragraph separator, private use
