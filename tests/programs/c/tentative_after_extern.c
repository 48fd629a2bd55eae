/* A scanner's globals declared `extern` first (as its header does) and defined later by tentative definitions
   without initializers (`int yyleng;`): the unit defines them, zero-initialized. */
#include <stdio.h>
#include <string.h>

extern int yyleng;
extern char *yytext;
extern struct token { int kind; long value; } yylval;

static int scan(const char *s) {
    yytext = (char *)s;
    yyleng = (int)strcspn(s, " ");
    yylval.kind = yyleng > 2;
    yylval.value += yyleng;
    return yyleng;
}

int yyleng;
char *yytext;
struct token yylval;
int yyleng;  /* (a second tentative definition of the same object) */

int main(void) {
    printf("%d %ld %d\n", yyleng, yylval.value, yytext == NULL);
    const char *words = "lex yacc bc dc calculator";
    for (const char *p = words; *p; ) {
        int n = scan(p);
        printf("%.*s %d %d %ld\n", yyleng, yytext, n, yylval.kind, yylval.value);
        p += n;
        while (*p == ' ') p++;
    }
    return 0;
}
