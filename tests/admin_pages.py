"""What a browser would post back from an admin change page it was shown, for tests that edit
one row of an inline among others and post the rest unchanged."""


def _post_value(bound_field):
    value = bound_field.value()
    if value is None or value is False:
        return None
    if value is True:
        return "on"
    if isinstance(value, list | tuple):
        return [str(item) for item in value]
    return str(value)


def _form_data(form) -> dict:
    data = {}
    for name in form.fields:
        if name in ("photo", "image"):
            continue
        value = _post_value(form[name])
        if value is not None:
            data[form.add_prefix(name)] = value
    return data


def change_form_data(response) -> dict:
    """The main form and every inline of an admin change page (or of a version's page, which
    has no inlines), as the page would post them."""
    data = _form_data(response.context["adminform"].form)
    for inline in response.context.get("inline_admin_formsets", []):
        formset = inline.formset
        management = formset.management_form
        for name in management.fields:
            data[management.add_prefix(name)] = str(management[name].value())
        for form in formset.initial_forms:
            data.update(_form_data(form))
    return data


def rows_of(data: dict, prefix: str) -> list[int]:
    """The form indexes of an inline's rows in the posted data."""
    return list(range(int(data[f"{prefix}-TOTAL_FORMS"])))
