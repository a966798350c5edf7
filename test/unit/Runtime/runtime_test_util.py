"""Helpers shared by python_binding.py and python_train.py (which import it
from their own directory)."""


def expect_raises(exc_type, fragment, fn, *args, **kwargs):
    """Checks that fn(*args, **kwargs) raises exc_type with `fragment` in its
    message."""
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        assert fragment in str(e), f"{fragment!r} not in {str(e)!r}"
        return
    raise AssertionError(f"expected {exc_type.__name__} containing "
                         f"{fragment!r}")
