from django import template

register = template.Library()


@register.filter
def pts(value) -> str:
    """A score as people write it: 2½, ½, 3, 0."""
    if value is None:
        return ""
    value = float(value)
    whole, half = int(value), value - int(value)
    if abs(half - 0.5) < 1e-9:
        return f"{whole}½" if whole else "½"
    return f"{value:g}"
