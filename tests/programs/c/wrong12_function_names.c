/* __func__ is a static array of each function (C11 6.4.2.2), not a string literal: its address differs from an
   equal literal's, and every use in one function gives the same array. In C, gcc's __PRETTY_FUNCTION__ is the
   plain name too. */
#include <stdio.h>
#include <string.h>

#define HERE __func__

static const char *tag_of_scale(void) { return __func__; }
static const char *tag_via_macro(void) { return HERE; }
static const char *pretty_of_scale(int n) { (void)n; return __PRETTY_FUNCTION__; }

struct entry { const char *who; int line; };

static struct entry record(void)
{
    struct entry e = { __FUNCTION__, __LINE__ };
    return e;
}

int main(void)
{
    const char *mine = __func__;
    const char *lit = "main";
    int same_literal = mine == lit;
    int stable = tag_of_scale() == tag_of_scale() && mine == __func__;
    int literal_scale = tag_of_scale() == (const char *)"tag_of_scale";
    struct entry e = record();
    printf("literal %d stable %d scale-literal %d\n", same_literal, stable, literal_scale);
    printf("%s %s %s %s %zu\n", tag_of_scale(), tag_via_macro(), pretty_of_scale(3), e.who, sizeof(__func__));
    printf("equal text %d\n", strcmp(mine, lit) == 0 && strcmp(tag_via_macro(), "tag_via_macro") == 0);
    return 0;
}
