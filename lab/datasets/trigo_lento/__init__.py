"""The text of the Trigo Lento workspace, written as Python data.

One module per page type (product sheets, policies, FAQs, seasonal notices, allergen pages,
drafts, private pages), a small vocabulary of block constructors and the pools of connective
sentences that vary from page to page. ``lab.datasets.bakery`` assembles them into the
workspace spec the Notion simulator reads.
"""
